//! The Masfix tables: the single source of truth for instruction names, what may follow each,
//! registers, operations, conditions, and the bit layout of one bytecode instruction. The
//! instruction bases are one [`polyasm_core::table!`] row each. The parser, encoder, decoder,
//! printer, VM and docs (the `ops` region of docs/masfix.md, `fields` of
//! docs/formats/masfix-bytecode.md) read them.
//!
//! An instruction name is a base (`mov`, `b`, `outc`, ...) followed by letters that the table
//! of its [`Shape`] allows: a modifier, a condition, a register and an intermediate operation
//! (`ldamt` is `ld`, modifier `a`, register `m`, operation `t`). In the bytecode an instruction
//! is two little-endian 16-bit words: the fields ([`pack`]) and the immediate.

/// What may follow an instruction base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `mov str ld jmp`: modifier, then a target value (`mod? (reg op?)?` and an immediate).
    Basic,
    /// `b l s`: condition register and condition, then a target value; no modifier.
    Cond,
    /// `outu outc`: a target value; no modifier.
    Out,
    /// `inc ipc inu`: an optional destination register, `r` or `m`; nothing else.
    Input,
    /// `swap inl`: nothing.
    Bare,
}

polyasm_core::table! {
    /// An instruction base, in the order the decomposition tries them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Kind;
    /// One row of the instruction table.
    #[derive(Clone, Copy, Debug)]
    pub struct KindInfo {
        /// What may follow the base in an instruction name: its suffixes and a value.
        shape: Shape,
        /// The register a modifier combines with and the result goes to (basic instructions).
        dest: Option<Reg>,
    }
    /// Every instruction base, indexed by [`Kind`].
    pub static KINDS;
    rows {
        Mov "mov" { shape: Shape::Basic, dest: Some(Reg::H) } "h = value: moves the head";
        Str "str" { shape: Shape::Basic, dest: Some(Reg::M) } "m = value: stores into the cell under the head";
        Ld "ld" { shape: Shape::Basic, dest: Some(Reg::R) } "r = value";
        Jmp "jmp" { shape: Shape::Basic, dest: Some(Reg::P) } "p = value: jumps";
        B "b" { shape: Shape::Cond, dest: None } "jumps to value when the condition register compared with 0 holds";
        L "l" { shape: Shape::Cond, dest: None } "r = 1 when the condition register compared with value holds, else 0";
        S "s" { shape: Shape::Cond, dest: None } "m = 1 when the condition register compared with value holds, else 0";
        Swap "swap" { shape: Shape::Bare, dest: None } "exchanges r and m";
        Outu "outu" { shape: Shape::Out, dest: None } "prints value as an unsigned decimal number";
        Outc "outc" { shape: Shape::Out, dest: None } "prints the byte value & 255";
        Inc "inc" { shape: Shape::Input, dest: None } "reads one byte into r (or m); 65535 at the end of input";
        Ipc "ipc" { shape: Shape::Input, dest: None } "peeks at the next byte into r (or m); 65535 at the end of input";
        Inu "inu" { shape: Shape::Input, dest: None } "reads decimal digits into r (or m), clamped at 65535; 0 when none";
        Inl "inl" { shape: Shape::Bare, dest: None } "skips input up to and including the next line break";
    }
    markdown {
        "base" => |row| format!("`{}`", row.mnemonic),
        "code" => |row| (row.op as u8).to_string(),
        "takes" => |row| {
            match row.shape {
                Shape::Basic => "modifier, register, operation, immediate",
                Shape::Cond => "condition register, condition, register, operation, immediate",
                Shape::Out => "register, operation, immediate",
                Shape::Input => "destination `r` or `m`",
                Shape::Bare => "nothing",
            }
            .to_string()
        },
        "does" => |row| row.doc.to_string(),
    }
}

/// The longest base's length: a name's base is one of its first this many letters.
const LONGEST_BASE: usize = {
    let mut longest = 0;
    let mut i = 0;
    while i < Kind::COUNT {
        if Kind::MNEMONICS[i].len() > longest {
            longest = Kind::MNEMONICS[i].len();
        }
        i += 1;
    }
    longest
};

impl Kind {
    /// What may follow this base in an instruction name (`ld` is [`Shape::Basic`]).
    pub fn shape(self) -> Shape {
        self.info().shape
    }

    /// The base an instruction name starts with: its longest prefix (4 letters down to 1) that
    /// names one, as the reference decomposes it, so `str…` is never `s` and `swa` is `s` + `wa`.
    pub fn longest_prefix(name: &str) -> Option<Kind> {
        (1..=LONGEST_BASE.min(name.len()))
            .rev()
            .find_map(|n| Kind::from_mnemonic(name.get(..n)?))
    }
}

/// A register: `h` the head address, `m` the cell under the head, `r` the accumulator, `p` the
/// index of the running instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    /// `h`: the head, the address of the cell `m` reads and writes.
    H,
    /// `m`: the memory cell at address `h`.
    M,
    /// `r`: the accumulator; it keeps its value when the head moves.
    R,
    /// `p`: the index of the running instruction; writing it jumps.
    P,
}

impl Reg {
    /// Every register, in the order of their bytecode numbers (`h` 1 ... `p` 4).
    pub const ALL: [Reg; 4] = [Reg::H, Reg::M, Reg::R, Reg::P];

    /// The letter that names the register in an instruction name: `h`, `m`, `r` or `p`.
    pub fn letter(self) -> char {
        ['h', 'm', 'r', 'p'][self as usize]
    }

    /// The register a letter names, if it names one (`'m'` is [`Reg::M`]).
    pub fn from_letter(c: char) -> Option<Reg> {
        Reg::ALL.into_iter().find(|r| r.letter() == c)
    }
}

/// An operation, as a modifier (`dest = dest op value`) or between a register and the
/// immediate (`reg op imm`). Results keep the low 16 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Oper {
    /// `a`: `l + r`, wrapping.
    Add,
    /// `s`: `l - r`, wrapping.
    Sub,
    /// `t`: `l * r`, the low 16 bits.
    Mul,
    /// `&`: bitwise and.
    And,
    /// `|`: bitwise or.
    Or,
    /// `^`: bitwise exclusive or.
    Xor,
    /// `<`: `l` shifted left by `r` mod 32; 0 for counts 16 to 31.
    Shl,
    /// `>`: `l` shifted right by `r` mod 32 (logical); 0 for counts 16 to 31.
    Shr,
    /// `.`: bit `r` mod 32 of `l`, 0 or 1; 0 for bits 16 to 31.
    Bit,
}

/// Every operation: its letter and what it computes.
pub const OPERS: [(Oper, char, &str); 9] = [
    (Oper::Add, 'a', "l + r"),
    (Oper::Sub, 's', "l - r"),
    (Oper::Mul, 't', "l * r (low 16 bits)"),
    (Oper::And, '&', "l & r"),
    (Oper::Or, '|', "l | r"),
    (Oper::Xor, '^', "l ^ r"),
    (Oper::Shl, '<', "l << (r mod 32), 0 from 16 on"),
    (Oper::Shr, '>', "l >> (r mod 32), 0 from 16 on"),
    (Oper::Bit, '.', "bit (r mod 32) of l, 0 from 16 on"),
];

impl Oper {
    /// The character that names the operation in an instruction name: `a` for add, `<` for
    /// shift left.
    pub fn letter(self) -> char {
        OPERS[self as usize].1
    }

    /// The operation a character names, if it names one (`'t'` is [`Oper::Mul`]).
    pub fn from_letter(c: char) -> Option<Oper> {
        OPERS.iter().find(|o| o.1 == c).map(|o| o.0)
    }

    /// `l op r`, wrapping at 16 bits. Shift counts act modulo 32, as both reference back ends
    /// behave: 16 to 31 shift everything out.
    #[inline]
    pub fn apply(self, l: u16, r: u16) -> u16 {
        let (l, count) = (u32::from(l), u32::from(r) % 32);
        match self {
            Oper::Add => (l + u32::from(r)) as u16,
            Oper::Sub => l.wrapping_sub(u32::from(r)) as u16,
            Oper::Mul => l.wrapping_mul(u32::from(r)) as u16,
            Oper::And => (l & u32::from(r)) as u16,
            Oper::Or => (l | u32::from(r)) as u16,
            Oper::Xor => (l ^ u32::from(r)) as u16,
            Oper::Shl => (l << count) as u16,
            Oper::Shr => (l >> count) as u16,
            Oper::Bit => (l >> count & 1) as u16,
        }
    }
}

/// The register a condition tests: `r` unless the name says `m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondReg {
    /// `r`, the accumulator: the default (`beq`).
    R,
    /// `m`, the cell under the head, written right after the base: `bmeq`.
    M,
}

impl CondReg {
    /// The register this tests, as a [`Reg`].
    pub fn reg(self) -> Reg {
        match self {
            CondReg::R => Reg::R,
            CondReg::M => Reg::M,
        }
    }
}

/// A comparison of the condition register (left) with a value (right; 0 for branches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// `eq`: equal.
    Eq,
    /// `ne`: not equal.
    Ne,
    /// `lt`: less than, both sides read as signed 16-bit numbers.
    Lt,
    /// `le`: less or equal, signed.
    Le,
    /// `gt`: greater than, signed.
    Gt,
    /// `ge`: greater or equal, signed.
    Ge,
    /// `ab`: above, unsigned.
    Ab,
    /// `ae`: above or equal, unsigned.
    Ae,
    /// `bl`: below, unsigned.
    Bl,
    /// `be`: below or equal, unsigned.
    Be,
}

/// Every condition: its two letters and what it tests.
pub const CONDS: [(Cond, &str, &str); 10] = [
    (Cond::Eq, "eq", "equal"),
    (Cond::Ne, "ne", "not equal"),
    (Cond::Lt, "lt", "less than, signed"),
    (Cond::Le, "le", "less or equal, signed"),
    (Cond::Gt, "gt", "greater than, signed"),
    (Cond::Ge, "ge", "greater or equal, signed"),
    (Cond::Ab, "ab", "above, unsigned"),
    (Cond::Ae, "ae", "above or equal, unsigned"),
    (Cond::Bl, "bl", "below, unsigned"),
    (Cond::Be, "be", "below or equal, unsigned"),
];

impl Cond {
    /// The condition's two letters in an instruction name: `eq`, `ab`.
    pub fn name(self) -> &'static str {
        CONDS[self as usize].1
    }

    /// The condition two letters name, if they name one (`"lt"` is [`Cond::Lt`]).
    pub fn from_name(name: &str) -> Option<Cond> {
        CONDS.iter().find(|c| c.1 == name).map(|c| c.0)
    }

    /// Whether `l cond r` holds.
    #[inline]
    pub fn test(self, l: u16, r: u16) -> bool {
        let (sl, sr) = (l as i16, r as i16);
        match self {
            Cond::Eq => l == r,
            Cond::Ne => l != r,
            Cond::Lt => sl < sr,
            Cond::Le => sl <= sr,
            Cond::Gt => sl > sr,
            Cond::Ge => sl >= sr,
            Cond::Ab => l > r,
            Cond::Ae => l >= r,
            Cond::Bl => l < r,
            Cond::Be => l <= r,
        }
    }
}

/// What an instruction computes before its body runs: nothing, an immediate, a register, or a
/// register combined with an immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// No value: `swap`, `inl`.
    None,
    /// The immediate alone: `ld 7`.
    Imm(u16),
    /// A register's value: `ldm`. For `inc ipc inu`, the destination instead.
    Reg(Reg),
    /// The register combined with the immediate by the operation: `ldmt 2` is `m * 2`.
    RegOp(Reg, Oper, u16),
}

/// One instruction, fully decomposed. Every combination the fields allow is one the language
/// allows: [`Instr::check`] says which are not, and the encoder and decoder never build those.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// The base: `ld` in `ldamt`.
    pub kind: Kind,
    /// `mov str ld jmp`: `dest = dest modifier value`.
    pub modifier: Option<Oper>,
    /// `b l s`: the register tested and the condition.
    pub cond: Option<(CondReg, Cond)>,
    /// For `inc ipc inu`, `Value::Reg` is the destination (`r` or `m`).
    pub value: Value,
}

impl Instr {
    /// An instruction of `kind` with no suffixes and no value.
    pub fn bare(kind: Kind) -> Instr {
        Instr {
            kind,
            modifier: None,
            cond: None,
            value: Value::None,
        }
    }

    /// Why this combination is not an instruction, if it is not.
    pub fn check(&self) -> Result<(), &'static str> {
        let shape = self.kind.shape();
        if self.modifier.is_some() && shape != Shape::Basic {
            return Err("only mov, str, ld and jmp take a modifier");
        }
        if self.cond.is_some() != (shape == Shape::Cond) {
            return Err("b, l and s, and only they, take a condition");
        }
        match (shape, self.value) {
            (Shape::Bare, Value::None) => Ok(()),
            (Shape::Bare, _) => Err("this instruction takes no value"),
            (Shape::Input, Value::Reg(Reg::R | Reg::M)) => Ok(()),
            (Shape::Input, _) => Err("an input instruction's only suffix is its destination, r or m"),
            (_, Value::None) => Err("this instruction needs a value"),
            _ => Ok(()),
        }
    }

    /// The instruction's name as canonically written: `ldamt`, `bmeq`, `incm`.
    pub fn name(&self) -> String {
        let mut name = String::from(self.kind.mnemonic());
        if let Some(modifier) = self.modifier {
            name.push(modifier.letter());
        }
        if let Some((reg, cond)) = self.cond {
            if reg == CondReg::M {
                name.push('m');
            }
            name.push_str(cond.name());
        }
        match self.value {
            Value::Reg(Reg::R) if self.kind.shape() == Shape::Input => {}
            Value::Reg(reg) => name.push(reg.letter()),
            Value::RegOp(reg, op, _) => {
                name.push(reg.letter());
                name.push(op.letter());
            }
            Value::None | Value::Imm(_) => {}
        }
        name
    }

    /// The immediate, if the instruction has one.
    pub fn imm(&self) -> Option<u16> {
        match self.value {
            Value::Imm(imm) | Value::RegOp(_, _, imm) => Some(imm),
            Value::None | Value::Reg(_) => None,
        }
    }
}

/// Where a field sits in an instruction's first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// The field's name in the format's docs: `kind`, `cond_m`.
    pub name: &'static str,
    /// Its lowest bit, counted from 0.
    pub shift: u8,
    /// How many bits it takes, 1 to 4.
    pub width: u8,
    /// What its values mean, one line of Markdown.
    pub doc: &'static str,
}

/// The first word of a bytecode instruction, low bit first; the second word is the immediate
/// (0 when the instruction has none).
pub const FIELDS: [FieldLayout; 5] = [
    field(
        "kind",
        0,
        4,
        "instruction base, 0 to 13 in table order (`mov` 0 ... `inl` 13)",
    ),
    field("reg", 4, 3, "register: 0 none, 1 `h`, 2 `m`, 3 `r`, 4 `p`"),
    field(
        "op",
        7,
        4,
        "intermediate operation: 0 none, 1 to 9 in table order (`a` 1 ... `.` 9)",
    ),
    field(
        "mod_cond",
        11,
        4,
        "modifier of `mov str ld jmp` (as `op`), or condition of `b l s` (`eq` 1 ... `be` 10)",
    ),
    field("cond_m", 15, 1, "condition register of `b l s`: 0 `r`, 1 `m`"),
];

const fn field(name: &'static str, shift: u8, width: u8, doc: &'static str) -> FieldLayout {
    FieldLayout {
        name,
        shift,
        width,
        doc,
    }
}

/// Packs an instruction into its two bytecode words.
pub fn pack(instr: &Instr) -> [u16; 2] {
    let (reg, op, imm) = match instr.value {
        Value::None => (0, 0, 0),
        Value::Imm(imm) => (0, 0, imm),
        Value::Reg(reg) => (reg as u16 + 1, 0, 0),
        Value::RegOp(reg, op, imm) => (reg as u16 + 1, op as u16 + 1, imm),
    };
    let (mod_cond, cond_m) = match (instr.modifier, instr.cond) {
        (Some(modifier), _) => (modifier as u16 + 1, 0),
        (None, Some((reg, cond))) => (cond as u16 + 1, u16::from(reg == CondReg::M)),
        (None, None) => (0, 0),
    };
    let word = instr.kind as u16 | reg << 4 | op << 7 | mod_cond << 11 | cond_m << 15;
    [word, imm]
}

/// Reads an instruction back from its two words; `Err` says what makes them no instruction.
pub fn unpack(words: [u16; 2]) -> Result<Instr, &'static str> {
    let [word, imm] = words;
    let kind = KINDS
        .get(usize::from(word & 0xf))
        .ok_or("the kind field is past `inl` (13)")?
        .op;
    let reg = match word >> 4 & 7 {
        0 => None,
        n => Some(
            *Reg::ALL
                .get(usize::from(n - 1))
                .ok_or("the register field is past `p` (4)")?,
        ),
    };
    let oper = |n: u16| OPERS.get(usize::from(n - 1)).map(|o| o.0);
    let op = match word >> 7 & 0xf {
        0 => None,
        n => Some(oper(n).ok_or("the operation field is past `.` (9)")?),
    };
    let mod_cond = word >> 11 & 0xf;
    let cond_m = word >> 15 == 1;
    let shape = kind.shape();
    let (modifier, cond) = match (shape, mod_cond) {
        (Shape::Cond, 0) => return Err("a condition instruction has no condition"),
        (Shape::Cond, n) => {
            let cond = CONDS
                .get(usize::from(n - 1))
                .ok_or("the condition field is past `be` (10)")?
                .0;
            (None, Some((if cond_m { CondReg::M } else { CondReg::R }, cond)))
        }
        (_, _) if cond_m => return Err("the condition register bit is set on an instruction with no condition"),
        (_, 0) => (None, None),
        (Shape::Basic, n) => (Some(oper(n).ok_or("the modifier field is past `.` (9)")?), None),
        (_, _) => return Err("the modifier field is set on an instruction that takes none"),
    };
    let value = match (shape, reg, op) {
        (Shape::Bare, None, None) => Value::None,
        (Shape::Input, Some(reg), None) => Value::Reg(reg),
        (Shape::Bare | Shape::Input, _, _) => {
            return Err("the register or operation field does not fit the instruction");
        }
        (_, None, None) => Value::Imm(imm),
        (_, Some(reg), None) => Value::Reg(reg),
        (_, Some(reg), Some(op)) => Value::RegOp(reg, op, imm),
        (_, None, Some(_)) => return Err("an operation without a register"),
    };
    let instr = Instr {
        kind,
        modifier,
        cond,
        value,
    };
    instr.check()?;
    if instr.imm().is_none() && imm != 0 {
        return Err("an instruction without an immediate has a nonzero immediate word");
    }
    Ok(instr)
}

/// The bytecode field layout as Markdown, for the `fields` region of
/// docs/formats/masfix-bytecode.md.
pub fn markdown_fields() -> String {
    let mut out = String::from("| bits | field | meaning |\n|---|---|---|\n");
    for f in FIELDS {
        let bits = match f.width {
            1 => f.shift.to_string(),
            w => format!("{}–{}", f.shift, f.shift + w - 1),
        };
        out.push_str(&format!("| {bits} | `{}` | {} |\n", f.name, f.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_prefix_names_the_base() {
        assert_eq!(Kind::longest_prefix("strtrs"), Some(Kind::Str));
        assert_eq!(Kind::longest_prefix("swa"), Some(Kind::S));
        assert_eq!(Kind::longest_prefix("swap"), Some(Kind::Swap));
        assert_eq!(Kind::longest_prefix("lmltra"), Some(Kind::L));
        assert_eq!(Kind::longest_prefix("ld"), Some(Kind::Ld));
        assert_eq!(Kind::longest_prefix("outcmt"), Some(Kind::Outc));
        assert_eq!(Kind::longest_prefix("x"), None);
        assert_eq!(Kind::longest_prefix("é"), None);
        assert_eq!(Kind::longest_prefix("outcc"), Some(Kind::Outc));
        assert_eq!(LONGEST_BASE, 4);
    }

    #[test]
    fn operations_wrap_and_shift_modulo_32() {
        assert_eq!(Oper::Add.apply(65535, 2), 1);
        assert_eq!(Oper::Sub.apply(0, 1), 65535);
        assert_eq!(Oper::Mul.apply(300, 300), (90000u32 % 65536) as u16);
        assert_eq!(Oper::Shl.apply(1, 32), 1);
        assert_eq!(Oper::Shl.apply(3, 33), 6);
        assert_eq!(Oper::Shl.apply(1, 16), 0);
        assert_eq!(Oper::Shr.apply(65535, 32), 65535);
        assert_eq!(Oper::Bit.apply(65535, 31), 0);
        assert_eq!(Oper::Bit.apply(65535, 32), 1);
        assert_eq!(Oper::Bit.apply(65535, 16), 0);
        assert_eq!(Oper::Bit.apply(0b100, 2), 1);
    }

    #[test]
    fn conditions_compare_signed_and_unsigned() {
        assert!(Cond::Lt.test(32768, 1));
        assert!(!Cond::Bl.test(32768, 1));
        assert!(Cond::Ab.test(65535, 0));
        assert!(!Cond::Gt.test(65535, 0));
        assert!(Cond::Ae.test(0, 0) && Cond::Le.test(0, 0) && !Cond::Ne.test(0, 0));
    }

    fn every_instr() -> Vec<Instr> {
        let values = [
            Value::None,
            Value::Imm(0),
            Value::Imm(65535),
            Value::Reg(Reg::H),
            Value::Reg(Reg::M),
            Value::Reg(Reg::R),
            Value::Reg(Reg::P),
            Value::RegOp(Reg::P, Oper::Bit, 7),
            Value::RegOp(Reg::M, Oper::Add, 0),
        ];
        let mut out = Vec::new();
        for kind in Kind::ALL {
            for modifier in std::iter::once(None).chain(OPERS.map(|o| Some(o.0))) {
                for cond in std::iter::once(None).chain(
                    CONDS
                        .iter()
                        .flat_map(|c| [Some((CondReg::R, c.0)), Some((CondReg::M, c.0))]),
                ) {
                    for value in values {
                        out.push(Instr {
                            kind,
                            modifier,
                            cond,
                            value,
                        });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn every_valid_instruction_packs_and_unpacks_to_itself() {
        let mut valid = 0;
        for instr in every_instr() {
            if instr.check().is_ok() {
                valid += 1;
                assert_eq!(unpack(pack(&instr)), Ok(instr), "{instr:?}");
            }
        }
        assert!(valid > 500, "{valid}");
    }

    #[test]
    fn every_word_pair_unpacks_to_a_valid_instruction_or_says_why_not() {
        for word in 0..=u16::MAX {
            for imm in [0, 1] {
                if let Ok(instr) = unpack([word, imm]) {
                    assert_eq!(instr.check(), Ok(()));
                    assert_eq!(pack(&instr), [word, imm], "{instr:?}");
                }
            }
        }
    }

    #[test]
    fn canonical_names_read_back_as_the_reference_decomposes_them() {
        let ldamt = Instr {
            kind: Kind::Ld,
            modifier: Some(Oper::Add),
            cond: None,
            value: Value::RegOp(Reg::M, Oper::Mul, 2),
        };
        assert_eq!(ldamt.name(), "ldamt");
        let lmltra = Instr {
            kind: Kind::L,
            modifier: None,
            cond: Some((CondReg::M, Cond::Lt)),
            value: Value::RegOp(Reg::R, Oper::Add, 7),
        };
        assert_eq!(lmltra.name(), "lmltra");
        let inc = Instr {
            value: Value::Reg(Reg::R),
            ..Instr::bare(Kind::Inc)
        };
        assert_eq!(inc.name(), "inc");
    }

    #[test]
    fn the_documentation_shows_these_tables() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
        for (page, regions) in [
            ("masfix.md", [("ops", Kind::markdown())]),
            ("formats/masfix-bytecode.md", [("fields", markdown_fields())]),
        ] {
            if let Err(message) = polyasm_core::table::check_doc_regions(&docs.join(page), &regions) {
                panic!("{message}");
            }
        }
    }
}
