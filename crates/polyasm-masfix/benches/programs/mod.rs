//! The programs the VM benchmarks run (a tight loop, a sieve, a program that reads numbers and
//! one that prints them), shared with the VM tests (which check what they print), assembled
//! by the crate's own assembler.

#![allow(dead_code)]

use polyasm_masfix::ops::Instr;

/// A writer that only counts: the benches measure the engines, not a copy of their output.
pub struct Count(pub usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Assembles a program (a valid one: anything else is a bug in the caller).
pub fn assemble(text: &str) -> Vec<Instr> {
    let bytes = polyasm_masfix::assemble_str(text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
    polyasm_masfix::decode::read(&bytes)
        .expect("bytecode the assembler wrote")
        .instrs
}

/// One instruction from its name and immediate, as the assembler reads them.
pub fn instr(name: &str, imm: Option<u16>) -> Instr {
    let line = match imm {
        Some(imm) => format!("{name} {imm}"),
        None => name.to_string(),
    };
    assemble(&line)[0]
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
