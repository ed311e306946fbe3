//! The programs the VM benchmarks run (a tight loop, a sieve, a program that reads numbers and
//! one that prints them), shared with the VM tests (which check what they print),
//! and a small reader of instruction lines for them: `:label`, then a name and at most one
//! immediate (a decimal number, a label or `end`). It knows only well-formed lines; the
//! assembler proper is `polyasm_masfix`'s own.

#![allow(dead_code)]

use polyasm_masfix::ops::{Cond, CondReg, Instr, Kind, Oper, Reg, Shape, Value};

/// Decomposes an instruction name as the language does (base, condition, suffixes) and
/// attaches the immediate.
pub fn instr(name: &str, imm: Option<u16>) -> Instr {
    let kind = Kind::longest_prefix(name).unwrap_or_else(|| panic!("no base in `{name}`"));
    let mut rest = &name[kind.name().len()..];
    let mut cond = None;
    if kind.shape() == Shape::Cond {
        let reg = if let Some(tail) = rest.strip_prefix('m') {
            rest = tail;
            CondReg::M
        } else {
            rest = rest.strip_prefix('r').unwrap_or(rest);
            CondReg::R
        };
        let c = Cond::from_name(&rest[..2]).unwrap_or_else(|| panic!("no condition in `{name}`"));
        cond = Some((reg, c));
        rest = &rest[2..];
    }
    let (mut modifier, mut reg, mut op) = (None, None, None);
    for (at, c) in rest.chars().enumerate() {
        if let Some(r) = Reg::from_letter(c) {
            reg = Some(r);
        } else if let Some(o) = Oper::from_letter(c) {
            if at == 0 {
                modifier = Some(o);
            } else {
                op = Some(o);
            }
        } else {
            panic!("unknown suffix in `{name}`");
        }
    }
    let value = match (kind.shape(), reg, op, imm) {
        (Shape::Bare, None, None, None) => Value::None,
        (Shape::Input, reg, None, None) => Value::Reg(reg.unwrap_or(Reg::R)),
        (_, None, None, Some(imm)) => Value::Imm(imm),
        (_, Some(reg), None, None) => Value::Reg(reg),
        (_, Some(reg), Some(op), Some(imm)) => Value::RegOp(reg, op, imm),
        _ => panic!("`{name}` does not fit its operands"),
    };
    let instr = Instr {
        kind,
        modifier,
        cond,
        value,
    };
    assert_eq!(instr.check(), Ok(()), "{name}");
    instr
}

/// Reads a program of lines `[:label] [name [immediate]]`, `;` comments.
pub fn assemble(text: &str) -> Vec<Instr> {
    let mut labels = std::collections::HashMap::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("").trim();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if let Some(label) = words.first().and_then(|w| w.strip_prefix(':')) {
            labels.insert(label.to_string(), lines.len() as u16);
            words.remove(0);
        }
        if !words.is_empty() {
            lines.push(words);
        }
    }
    labels.insert("end".to_string(), lines.len() as u16);
    lines
        .iter()
        .map(|words| {
            let imm = words.get(1).map(|w| match w.parse::<u16>() {
                Ok(n) => n,
                Err(_) => *labels.get(*w).unwrap_or_else(|| panic!("no label `{w}`")),
            });
            instr(words[0], imm)
        })
        .collect()
}

/// Counts `r` down from 65535 to 0, 100 times (a counter in memory): two instructions an
/// iteration.
pub const LOOP: &str = "
    str 100
:outer
    ld 65535
:inner
    lds 1
    bne inner
    strs 1
    bmne outer
";

/// The sieve of Eratosthenes over cells 2 to 64999, then prints how many primes it found.
/// Cell 65000 holds the candidate `i`, 65001 is scratch, 65002 the count.
pub const SIEVE: &str = "
    mov 65000
    str 2
:outer
    ldm
    movr
    bmne next
    mov 65000
    ldm
    ldtm            ; r = i * i
:inner
    movr
    str 1
    mov 65000
    ldam            ; r = j + i
    mov 65001
    sbl 65000
    bmne inner
:next
    mov 65000
    stra 1
    ldm
    lbl 255
    bne outer
    ld 2
:count
    movr
    bmne skip
    mov 65002
    stra 1
:skip
    lda 1
    mov 65001
    sbl 65000
    bmne count
    mov 65002
    outum
    outc 10
";

/// Reads 65,535 numbers, one a line, and prints their sum modulo 65,536.
pub const SUM: &str = "
    mov 1
    str 65535
:loop
    mov 0
    inu
    inl
    strar
    mov 1
    strs 1
    bmne loop
    mov 0
    outum
    outc 10
";

/// Prints the numbers from 65535 down to 1, one a line, 4 times.
pub const PRINT: &str = "
    str 4
:outer
    ld 65535
:loop
    outur
    outc 10
    lds 1
    bne loop
    strs 1
    bmne outer
";

/// The numbers [`SUM`] reads.
pub fn sum_numbers() -> Vec<u16> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..65535)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 48) as u16
        })
        .collect()
}

/// [`sum_numbers`] as the text [`SUM`] reads.
pub fn sum_input() -> Vec<u8> {
    let mut out = String::new();
    for n in sum_numbers() {
        out.push_str(&n.to_string());
        out.push('\n');
    }
    out.into_bytes()
}
