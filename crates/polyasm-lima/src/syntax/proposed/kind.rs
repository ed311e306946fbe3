//! What an operation of the proposed syntax is, read from its opcode word and unit alone:
//! [`Kind`], the modifiers, the older names, and the diagnostic a word draws, as data. The
//! parsing stage reads every word here; the encoder reports what does not read.

use crate::ops::proposed::{self as names};
use crate::ops::{
    self, ACC_OPS, AccOp, BRANCH_CONDS, BranchCond, COMBINE_ATAN_PT2, COMBINE_MUL, COMBINE_OPS, CombineOp, FB_READS,
    FbRead, Field, LOAD_SOURCES, LoadSource, MUL_OPS, MulOp, OUTMODS, OutMod, PERSPECTIVES, Perspective,
};

/// What an operation is, once its opcode, unit and modifiers are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Stop,
    Sync,
    Nop,
    Varying(Perspective),
    Texld {
        lod: bool,
    },
    Load(LoadSource),
    VecMul(MulOp, i8, OutMod),
    FloatMul(MulOp, i8, OutMod),
    VecAcc(AccOp, OutMod),
    FloatAcc(AccOp, OutMod),
    /// The op, its output modifier and the destination form asked for (`Some(true)`: `_vec`).
    CombineScalar(CombineOp, OutMod, Option<bool>),
    CombineMul,
    AtanPt2(OutMod),
    Store,
    FbRead(FbRead),
    Branch(BranchCond),
    Discard,
    Const(usize),
}

impl Kind {
    /// The position in the control word: stop, sync, then the fields; `None` for `nop`.
    pub(super) fn slot(self) -> Option<usize> {
        let field = match self {
            Kind::Stop => return Some(0),
            Kind::Sync => return Some(1),
            Kind::Nop => return None,
            Kind::Varying(_) => Field::Varying,
            Kind::Texld { .. } => Field::Sampler,
            Kind::Load(_) => Field::Uniform,
            Kind::VecMul(..) => Field::Vec4Mul,
            Kind::FloatMul(..) => Field::FloatMul,
            Kind::VecAcc(..) => Field::Vec4Acc,
            Kind::FloatAcc(..) => Field::FloatAcc,
            Kind::CombineScalar(..) | Kind::CombineMul | Kind::AtanPt2(_) => Field::Combine,
            Kind::Store | Kind::FbRead(_) => Field::TempWrite,
            Kind::Branch(_) | Kind::Discard => Field::Branch,
            Kind::Const(0) => Field::Const0,
            Kind::Const(_) => Field::Const1,
        };
        Some(2 + field.info().index as usize)
    }

    /// The operands it takes, as words for the help line (`dest src1 src2`).
    pub(super) fn form(self) -> &'static [&'static str] {
        match self {
            Kind::Stop | Kind::Sync | Kind::Nop | Kind::Discard => &[],
            Kind::Varying(_) => &["dest", "source"],
            Kind::Texld { .. } => &["sampler", "[lod-register]", "[bias(n)]"],
            Kind::Load(_) => &["index"],
            Kind::VecMul(op, ..) | Kind::FloatMul(op, ..) if !op.is_binary() => &["dest", "src"],
            Kind::VecAcc(op, _) | Kind::FloatAcc(op, _) if !op.is_binary() => &["dest", "src"],
            Kind::CombineScalar(op, ..) if !op.is_binary() => &["dest", "src"],
            Kind::VecMul(..) | Kind::FloatMul(..) | Kind::VecAcc(..) | Kind::FloatAcc(..) => &["dest", "src1", "src2"],
            Kind::CombineScalar(..) | Kind::CombineMul => &["dest", "src1", "src2"],
            Kind::AtanPt2(_) => &["dest", "src"],
            Kind::Store => &["index", "src"],
            Kind::FbRead(_) => &["dest"],
            Kind::Branch(BranchCond::Always) => &["target"],
            Kind::Branch(_) => &["src1", "src2", "target"],
            Kind::Const(_) => &["x", "y", "z", "w"],
        }
    }

    /// How many operands it takes, at least and at most.
    pub(super) fn operand_range(self) -> (usize, usize) {
        let form = self.form();
        let required = form.iter().filter(|w| !w.starts_with('[')).count();
        (required, form.len())
    }

    /// Whether its first operand is a destination that the older examples wrote last.
    pub(super) fn has_dest(self) -> bool {
        !matches!(
            self,
            Kind::Stop
                | Kind::Sync
                | Kind::Nop
                | Kind::Texld { .. }
                | Kind::Load(_)
                | Kind::Store
                | Kind::Branch(_)
                | Kind::Discard
                | Kind::Const(_)
        )
    }

    /// The name of its unit for messages.
    pub(super) fn unit_name(self) -> &'static str {
        match self {
            Kind::Stop => "`stop`",
            Kind::Sync => "`sync`",
            Kind::Nop => "`nop`",
            _ => match self.slot().map(|s| Field::ALL[s - 2]) {
                Some(Field::Varying) => "varying",
                Some(Field::Sampler) => "texture",
                Some(Field::Uniform) => "load",
                Some(Field::Vec4Mul) => "`.v0`",
                Some(Field::FloatMul) => "`.s0`",
                Some(Field::Vec4Acc) => "`.v1`",
                Some(Field::FloatAcc) => "`.s1`",
                Some(Field::Combine) => "`.s2`",
                Some(Field::TempWrite) => "store/framebuffer",
                Some(Field::Branch) => "branch",
                Some(Field::Const0) => "`const0`",
                _ => "`const1`",
            },
        }
    }
}

/// `word` with an older name of an opcode at its start replaced by the current one
/// ([`names::OLD_OPCODES`]); `replaced` sees each older name replaced.
pub(super) fn current_name<'w>(
    word: &'w str,
    mut replaced: impl FnMut(&'static str, &'static str),
) -> std::borrow::Cow<'w, str> {
    let mut word = std::borrow::Cow::Borrowed(word);
    for &(old, new) in names::OLD_OPCODES {
        if let Some(rest) = split(&word, old) {
            replaced(old, new);
            let renamed = format!("{new}{rest}");
            word = std::borrow::Cow::Owned(renamed);
        }
    }
    word
}

/// Why an opcode word names no operation on its unit.
pub(super) enum KindError<'w> {
    /// No opcode of that unit starts the word (PP002 or PP003, from the word alone).
    Unknown,
    /// `op` does not take `modifier`; the modifiers start `base_len` bytes into the word.
    BadModifier {
        base_len: usize,
        modifier: &'w str,
        op: &'static str,
        allowed: std::borrow::Cow<'static, str>,
    },
    /// Two modifiers of one sort (`what`: output modifiers, shifts).
    Conflict {
        base_len: usize,
        op: &'static str,
        what: &'static str,
        found: Vec<&'static str>,
    },
}

/// The operation of `word` (older names already replaced) on `unit`.
pub(super) fn kind_of<'w>(word: &'w str, unit: Option<&str>) -> Result<Kind, KindError<'w>> {
    let unknown = KindError::Unknown;
    let bad = |base: &str, modifier: &'w str, op: &'static str, allowed: &'static str| {
        Err(KindError::BadModifier {
            base_len: base.len(),
            modifier,
            op,
            allowed: allowed.into(),
        })
    };
    match unit {
        None => {
            for (name, kind) in [
                (ops::STOP_NAME, Kind::Stop),
                (ops::SYNC_NAME, Kind::Sync),
                (names::NOP, Kind::Nop),
                (ops::DISCARD_NAME, Kind::Discard),
                (ops::FIELDS[10].mesa, Kind::Const(0)),
                (ops::FIELDS[11].mesa, Kind::Const(1)),
            ] {
                if word == name {
                    return Ok(kind);
                }
            }
            if let Some(read) = FB_READS.iter().find(|r| r.name == word) {
                return Ok(Kind::FbRead(read.value));
            }
            if let Some(rest) = split(word, ops::TEXLD_NAME) {
                return match rest {
                    "" => Ok(Kind::Texld { lod: false }),
                    names::TEXLD_LOD => Ok(Kind::Texld { lod: true }),
                    _ => bad(ops::TEXLD_NAME, rest, ops::TEXLD_NAME, "`_lod`"),
                };
            }
            if let Some(rest) = split(word, ops::BRANCH_NAME) {
                if rest.is_empty() {
                    return Ok(Kind::Branch(BranchCond::Always));
                }
                let cond = rest
                    .strip_prefix(names::COND_PREFIX)
                    .and_then(|c| BRANCH_CONDS.iter().find(|r| !r.name.is_empty() && r.name == c));
                return match cond {
                    Some(row) => Ok(Kind::Branch(row.value)),
                    None => bad(
                        ops::BRANCH_NAME,
                        rest,
                        ops::BRANCH_NAME,
                        "a condition: `_lt`, `_eq`, `_le`, `_gt`, `_ne`, `_ge` or `_nv`",
                    ),
                };
            }
            Err(unknown)
        }
        Some(names::UNIT_VARYING) => {
            let rest = split(word, ops::LOAD_NAME).ok_or(unknown)?;
            if rest.is_empty() {
                return Ok(Kind::Varying(Perspective::None));
            }
            match PERSPECTIVES.iter().find(|r| !r.name.is_empty() && r.name == rest) {
                Some(row) => Ok(Kind::Varying(row.value)),
                None => bad(ops::LOAD_NAME, rest, "load.v", "`_perspective_z` or `_perspective_w`"),
            }
        }
        Some(unit) if LOAD_SOURCES.iter().any(|r| r.name == unit) => {
            if word == ops::STORE_NAME && unit == names::UNIT_STORE {
                return Ok(Kind::Store);
            }
            let source = LOAD_SOURCES
                .iter()
                .find(|r| r.name == unit)
                .ok_or(KindError::Unknown)?
                .value;
            let rest = split(word, ops::LOAD_NAME).ok_or(unknown)?;
            if rest.is_empty() {
                Ok(Kind::Load(source))
            } else {
                bad(ops::LOAD_NAME, rest, ops::LOAD_NAME, "")
            }
        }
        Some(unit @ (names::UNIT_VEC_MUL | names::UNIT_FLOAT_MUL)) => {
            let (row, rest) = longest_base(word, MUL_OPS.iter().map(|r| (r.mesa, r))).ok_or(unknown)?;
            let allowed = if row.op == names::SHIFTED_OP {
                modifier_names().mul
            } else {
                modifier_names().outmods
            };
            let mods = modifiers(rest, allowed, row.mesa.len(), row.mesa)?;
            let outmod = outmod_of(&mods);
            let shift = names::MUL_SHIFTS
                .iter()
                .find(|(_, t)| mods.contains(t))
                .map_or(0, |(s, _)| *s);
            Ok(if unit == names::UNIT_VEC_MUL {
                Kind::VecMul(row.op, shift, outmod)
            } else {
                Kind::FloatMul(row.op, shift, outmod)
            })
        }
        Some(unit @ (names::UNIT_VEC_ACC | names::UNIT_FLOAT_ACC)) => {
            let vector = unit == names::UNIT_VEC_ACC;
            let (row, rest) = longest_base(
                word,
                ACC_OPS.iter().filter(|r| vector || !r.vector_only).map(|r| (r.mesa, r)),
            )
            .ok_or(unknown)?;
            let mods = modifiers(rest, modifier_names().outmods, row.mesa.len(), row.mesa)?;
            let outmod = outmod_of(&mods);
            Ok(if vector {
                Kind::VecAcc(row.op, outmod)
            } else {
                Kind::FloatAcc(row.op, outmod)
            })
        }
        Some(names::UNIT_COMBINE) => {
            let outmods = modifier_names().outmods;
            if let Some(rest) = split(word, COMBINE_ATAN_PT2.mesa) {
                let base = COMBINE_ATAN_PT2.mesa;
                let mods = modifiers(rest, outmods, base.len(), base)?;
                return Ok(Kind::AtanPt2(outmod_of(&mods)));
            }
            if let Some(rest) = split(word, COMBINE_MUL.mesa) {
                modifiers(rest, &[], COMBINE_MUL.mesa.len(), "mul.s2")?;
                return Ok(Kind::CombineMul);
            }
            let (row, rest) = longest_base(word, COMBINE_OPS.iter().map(|r| (r.mesa, r))).ok_or(unknown)?;
            let mods = modifiers(rest, modifier_names().combine, row.mesa.len(), row.mesa)?;
            let vec = mods.contains(&names::COMBINE_VEC_DEST);
            let scalar = mods.contains(&names::COMBINE_SCALAR_DEST);
            let outmod = outmod_of(&mods);
            if vec && (scalar || outmod != OutMod::None) {
                let modifier = if scalar {
                    names::COMBINE_SCALAR_DEST
                } else {
                    outmod.info().name
                };
                return bad(
                    row.mesa,
                    modifier,
                    row.mesa,
                    "an output modifier only with a scalar destination, and `_vec` or `_scalar`, not both",
                );
            }
            let form = if vec {
                Some(true)
            } else if scalar {
                Some(false)
            } else {
                None
            };
            Ok(Kind::CombineScalar(row.op, outmod, form))
        }
        Some(_) => Err(unknown),
    }
}

/// Splits `rest` (`_x2_sat`), which starts `base_len` bytes into the word of `op`, into
/// modifiers of `allowed`, each at most once.
fn modifiers<'w>(
    rest: &'w str,
    allowed: &[&'static str],
    base_len: usize,
    op: &'static str,
) -> Result<Mods, KindError<'w>> {
    let mut found = Mods::default();
    let mut left = rest;
    while !left.is_empty() {
        let hit = allowed
            .iter()
            .filter(|m| left.starts_with(**m) && (left.len() == m.len() || left[m.len()..].starts_with('_')))
            .max_by_key(|m| m.len());
        match hit {
            Some(m) if !found.contains(m) => {
                found.push(m);
                left = &left[m.len()..];
            }
            _ => {
                let end = left[1..].find('_').map_or(left.len(), |i| i + 1);
                let list = polyasm_core::text::list_alternatives(allowed.iter().map(|m| format!("`{m}`")).collect());
                let list = if allowed.is_empty() {
                    String::new()
                } else {
                    format!("{list}, each at most once")
                };
                return Err(KindError::BadModifier {
                    base_len,
                    modifier: &left[..end],
                    op,
                    allowed: list.into(),
                });
            }
        }
    }
    // Two output modifiers, or two shifts, are one too many.
    let is_outmod = |m: &&str| OUTMODS.iter().any(|r| r.name == *m);
    let is_shift = |m: &&str| names::MUL_SHIFTS.iter().any(|(_, t)| t == m);
    for (what, is) in [
        ("output modifier", &is_outmod as &dyn Fn(&&str) -> bool),
        ("shift", &is_shift),
    ] {
        if found.iter().filter(|m| is(m)).count() > 1 {
            return Err(KindError::Conflict {
                base_len,
                op,
                what,
                found: found.iter().copied().filter(|m| is(m)).collect(),
            });
        }
    }
    Ok(found)
}

/// The most modifiers one opcode takes: each of its allowed ones at most once.
pub(super) const MAX_MODIFIERS: usize = 16;

/// The modifiers read from an opcode word, in order, without allocating.
#[derive(Clone, Copy, Default)]
pub(super) struct Mods {
    names: [&'static str; MAX_MODIFIERS],
    len: usize,
}

impl Mods {
    pub(super) fn push(&mut self, name: &'static str) {
        self.names[self.len] = name;
        self.len += 1;
    }
}

impl std::ops::Deref for Mods {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &self.names[..self.len]
    }
}

/// The modifiers each kind of opcode takes, from the table, built once.
pub(super) struct ModifierNames {
    /// The output modifiers.
    outmods: &'static [&'static str],
    /// `mul` of the multipliers: the output modifiers and the shifts.
    mul: &'static [&'static str],
    /// The scalar ops of `.s2`: the output modifiers and the destination forms.
    combine: &'static [&'static str],
}

pub(super) fn modifier_names() -> &'static ModifierNames {
    static NAMES: std::sync::OnceLock<ModifierNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let outmods: Vec<&'static str> = OUTMODS.iter().filter(|r| !r.name.is_empty()).map(|r| r.name).collect();
        let mut mul = outmods.clone();
        mul.extend(names::MUL_SHIFTS.iter().map(|(_, t)| *t));
        let mut combine = outmods.clone();
        combine.extend([names::COMBINE_VEC_DEST, names::COMBINE_SCALAR_DEST]);
        // Each is read at most once, so a list this long fits in a `Mods`.
        assert!(
            mul.len().max(combine.len()) <= MAX_MODIFIERS,
            "invariant: modifier lists fit"
        );
        ModifierNames {
            outmods: outmods.leak(),
            mul: mul.leak(),
            combine: combine.leak(),
        }
    })
}

/// `Some(rest)` when `word` is `base` followed by nothing or by `_` modifiers.
pub(super) fn split<'w>(word: &'w str, base: &str) -> Option<&'w str> {
    word.strip_prefix(base)
        .filter(|rest| rest.is_empty() || rest.starts_with('_'))
}

/// The row whose name is the longest base of `word`, and the modifiers after it.
pub(super) fn longest_base<T>(word: &str, rows: impl Iterator<Item = (&'static str, T)>) -> Option<(T, &str)> {
    rows.filter_map(|(name, row)| split(word, name).map(|rest| (name.len(), row, rest)))
        .max_by_key(|(len, ..)| *len)
        .map(|(_, row, rest)| (row, rest))
}

pub(super) fn outmod_of(mods: &[&str]) -> OutMod {
    OUTMODS
        .iter()
        .find(|r| !r.name.is_empty() && mods.contains(&r.name))
        .map_or(OutMod::None, |r| r.value)
}

/// Every opcode with the unit it is written with (`""` for none), for suggestions.
pub(super) fn all_forms() -> Vec<(&'static str, &'static str)> {
    let mut forms: Vec<(&str, &str)> = vec![
        (ops::STOP_NAME, ""),
        (ops::SYNC_NAME, ""),
        (names::NOP, ""),
        (ops::TEXLD_NAME, ""),
        (ops::BRANCH_NAME, ""),
        (ops::DISCARD_NAME, ""),
        (ops::FIELDS[10].mesa, ""),
        (ops::FIELDS[11].mesa, ""),
        (ops::LOAD_NAME, names::UNIT_VARYING),
        (ops::STORE_NAME, names::UNIT_STORE),
        (COMBINE_MUL.mesa, names::UNIT_COMBINE),
        (COMBINE_ATAN_PT2.mesa, names::UNIT_COMBINE),
    ];
    forms.extend(FB_READS.iter().map(|r| (r.name, "")));
    forms.extend(LOAD_SOURCES.iter().map(|r| (ops::LOAD_NAME, r.name)));
    for unit in [names::UNIT_VEC_MUL, names::UNIT_FLOAT_MUL] {
        forms.extend(MUL_OPS.iter().map(|r| (r.mesa, unit)));
    }
    forms.extend(ACC_OPS.iter().map(|r| (r.mesa, names::UNIT_VEC_ACC)));
    forms.extend(
        ACC_OPS
            .iter()
            .filter(|r| !r.vector_only)
            .map(|r| (r.mesa, names::UNIT_FLOAT_ACC)),
    );
    forms.extend(COMBINE_OPS.iter().map(|r| (r.mesa, names::UNIT_COMBINE)));
    forms
}
