//! One operation as the machine does it, free of spelling (what the encoder makes of a
//! statement and the decoder of a slot), and the rules that give two paired MOVs their units.

use crate::ops::{Op, PAIRED_ILU_TEMP};

/// Where a source reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SrcReg {
    /// `r0`..`r12` (`r12` reads oPos).
    Temp(u8),
    /// `v0`..`v15`.
    Input(u8),
    /// `cN`, or `c[A0+N]` when relative.
    Const {
        /// The constant register, 0 to 191 (the offset when relative).
        index: u8,
        /// Whether `a0.x` is added to `index`.
        relative: bool,
    },
}

/// A source operand as the machine reads it: register, four lane selects, sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The register read.
    pub reg: SrcReg,
    /// Lane codes (0 = x … 3 = w) for x, y, z, w.
    pub swizzle: [u8; 4],
    /// Whether the source is negated (`-r0`).
    pub negate: bool,
}

impl Default for Source {
    fn default() -> Self {
        Source {
            reg: SrcReg::Temp(0),
            swizzle: [0, 1, 2, 3],
            negate: false,
        }
    }
}

/// Where an operation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DestReg {
    /// `r0`..`r11`.
    Temp(u8),
    /// An o-register, by OUT_ADDRESS.
    Output(u8),
    /// A c-register (vertex state programs).
    Const(u8),
    /// `a0` (ARL).
    Address,
}

/// A destination: register and write mask (x = 8, y = 4, z = 2, w = 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dest {
    /// The register written.
    pub reg: DestReg,
    /// The lanes written: x = 8, y = 4, z = 2, w = 1.
    pub mask: u8,
}

/// One operation, resolved: what the machine does, free of spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operation {
    /// The operation: `mov`, `dp4`, ...
    pub op: Op,
    /// Where it writes.
    pub dest: Dest,
    /// Its sources; those past `op`'s count are unused (see [`Operation::sources`]).
    pub sources: [Source; 3],
}

impl Operation {
    /// The sources the operation takes.
    pub fn sources(&self) -> &[Source] {
        &self.sources[..self.op.info().sources()]
    }
}

/// What one MOV unit op writes: a temporary, an o/c register, or both (one source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovWrites {
    /// The temporary written, 0 to 11, if any.
    pub temp: Option<u8>,
    /// Whether an o- or c-register is written.
    pub out: bool,
}

impl MovWrites {
    fn other_temp(self) -> bool {
        self.temp.is_some_and(|register| register != PAIRED_ILU_TEMP)
    }
}

/// Whether the first of two paired MOV unit ops runs on the MAC. The ILU writes no
/// temporary but r1, so a MOV writing another temporary takes the MAC; otherwise the MOV that
/// writes an o/c register takes the MAC and the one writing r1 the ILU (nv2avsh's rule, which
/// also keeps a paired MAC from writing r1); when neither decides, the first written.
pub fn first_mov_on_mac(first: MovWrites, second: MovWrites) -> bool {
    match (first.other_temp(), second.other_temp()) {
        (true, false) => true,
        (false, true) => false,
        _ => first.out || !second.out,
    }
}

/// Moving the o/c write between two MOV unit ops of one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regroup {
    /// The o/c write moves to the first MOV.
    OutToFirst,
    /// The o/c write moves to the second MOV.
    OutToSecond,
}

/// Two MOVs of one source, one writing an o/c register and r1, the other another temporary:
/// the o/c write joins the other temporary's, so that it runs on the MAC and r1 on the ILU,
/// whatever order the three writes were written in.
pub fn regroup_same_source(first: MovWrites, second: MovWrites) -> Option<Regroup> {
    let with_r1 = |m: MovWrites| m.out && m.temp == Some(PAIRED_ILU_TEMP);
    let lone_other_temp = |m: MovWrites| !m.out && m.other_temp();
    if with_r1(first) && lone_other_temp(second) {
        Some(Regroup::OutToSecond)
    } else if with_r1(second) && lone_other_temp(first) {
        Some(Regroup::OutToFirst)
    } else {
        None
    }
}
