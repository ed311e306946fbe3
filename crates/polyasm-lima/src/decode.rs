//! Words to instructions. A program is walked by the length in each control word; a length
//! of 0, one past the end, one that disagrees with the presence bits, or an op number no table
//! has stops the walk with a [`DecodeError`]. Bits the model does not hold are no error: each
//! [`Decoded`] instruction lists them as [`LostBits`], so that a caller can warn that
//! re-encoding gives different words. `next_count`, `prefetch` and a branch's target-count
//! bits are compared with what [`crate::instr::words::encode`] computes for the decoded program.

use crate::instr::words::{control_word, count_near, read_bits};
use crate::instr::{Branch, Instr, LostBits, UndefinedOp, count_for_presence};
use crate::ops::{Field, ctrl};

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// Word offset of its control word in the program.
    pub offset: usize,
    /// The instruction.
    pub instr: Instr,
    /// Bits whose values the model does not keep (empty when re-encoding gives the same
    /// words).
    pub lost: Vec<LostBits>,
}

/// What stopped decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// A control word with length 0 (often zero padding after the program).
    ZeroCount,
    /// The length runs past the end of the words.
    PastEnd {
        /// The length in the control word.
        count: u32,
        /// Words left from the control word on.
        left: usize,
    },
    /// The length is not what the presence bits need.
    CountMismatch {
        /// The length in the control word.
        count: u32,
        /// The length the presence bits need.
        expected: u32,
    },
    /// An op number no opcode table has.
    UndefinedOp(UndefinedOp),
}

/// An error of [`decode`]: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// Word offset of the instruction's control word.
    pub offset: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            DecodeErrorKind::ZeroCount => crate::error::Code::ZeroCount.as_str(),
            DecodeErrorKind::PastEnd { .. } => crate::error::Code::PastEnd.as_str(),
            DecodeErrorKind::CountMismatch { .. } => crate::error::Code::CountMismatch.as_str(),
            DecodeErrorKind::UndefinedOp(_) => crate::error::Code::UndefinedOp.as_str(),
        }
    }
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "word {}: ", self.offset)?;
        match &self.kind {
            DecodeErrorKind::ZeroCount => write!(f, "the control word gives a length of 0"),
            DecodeErrorKind::PastEnd { count, left } => write!(
                f,
                "the control word gives a length of {count} words, but only {left} are left"
            ),
            DecodeErrorKind::CountMismatch { count, expected } => write!(
                f,
                "the control word gives a length of {count} words, but its fields need {expected}"
            ),
            DecodeErrorKind::UndefinedOp(UndefinedOp { field, code }) => {
                write!(f, "{} op number {code} is not defined", field.info().mesa)
            }
        }
    }
}

/// Decodes a whole program.
pub fn decode(words: &[u32]) -> Result<Vec<Decoded>, DecodeError> {
    let mut decoded = Vec::new();
    let mut target_counts = Vec::new();
    let mut at = 0usize;
    while at < words.len() {
        let (one, target_count) = decode_one(words, at)?;
        at += one.instr.count() as usize;
        decoded.push(one);
        target_counts.push(target_count);
    }
    check_links(words, &mut decoded, &target_counts);
    Ok(decoded)
}

/// Decodes the instruction at word `offset`; also returns its branch's target-count bits.
fn decode_one(words: &[u32], offset: usize) -> Result<(Decoded, Option<u8>), DecodeError> {
    let fail = |kind| DecodeError { offset, kind };
    let ctrl_word = words[offset];
    let count = ctrl_word & ctrl::COUNT_MASK;
    if count == 0 {
        return Err(fail(DecodeErrorKind::ZeroCount));
    }
    let left = words.len() - offset;
    if count as usize > left {
        return Err(fail(DecodeErrorKind::PastEnd { count, left }));
    }
    let presence = ctrl_word >> ctrl::PRESENCE_SHIFT & ctrl::PRESENCE_MASK;
    let expected = count_for_presence(presence);
    if count != expected {
        return Err(fail(DecodeErrorKind::CountMismatch { count, expected }));
    }
    let payload = &words[offset + 1..offset + count as usize];
    let mut instr = Instr {
        stop: ctrl_word & ctrl::STOP != 0,
        sync: ctrl_word & ctrl::SYNC != 0,
        ..Instr::default()
    };
    let mut lost = Vec::new();
    let mut target_count = None;
    let mut bit = 0;
    for field in Field::ALL {
        let info = field.info();
        if presence >> info.index & 1 == 0 {
            continue;
        }
        let bits = read_bits(payload, bit, info.bits);
        bit += info.bits;
        let count = instr.unpack_field(field, bits, &mut lost);
        target_count = target_count.or(count.map_err(|e| fail(DecodeErrorKind::UndefinedOp(e)))?);
    }
    let padding = payload.len() as u32 * 32 - bit;
    let found = read_bits(payload, bit, padding) as u64;
    lost.extend(LostBits::differ(None, "padding", (bit, padding), found, 0));
    let unknown = ctrl_word >> ctrl::UNKNOWN_SHIFT;
    let bits = (ctrl::UNKNOWN_SHIFT, 32 - ctrl::UNKNOWN_SHIFT);
    lost.extend(LostBits::differ(None, "unknown", bits, unknown.into(), 0));
    Ok((Decoded { offset, instr, lost }, target_count))
}

/// Compares `next_count`, `prefetch` and the branches' target counts with the program.
fn check_links(words: &[u32], decoded: &mut [Decoded], target_counts: &[Option<u8>]) {
    let starts: Vec<usize> = decoded.iter().map(|d| d.offset).collect();
    let counts: Vec<u32> = decoded.iter().map(|d| d.instr.count()).collect();
    for i in 0..decoded.len() {
        let found = words[starts[i]] >> ctrl::NEXT_COUNT_SHIFT & 0x7f;
        let expected = control_word(&decoded[i].instr, counts[i], counts.get(i + 1).copied()) >> ctrl::NEXT_COUNT_SHIFT;
        let bits = (ctrl::NEXT_COUNT_SHIFT, 7);
        let lost = LostBits::differ(None, "next_count and prefetch", bits, found.into(), expected.into());
        decoded[i].lost.extend(lost);
        if let (Some(Branch::Jump { target, .. }), Some(found)) = (decoded[i].instr.branch, target_counts[i]) {
            let expected = count_near(&starts, &counts, i, i64::from(target));
            let bits = (crate::instr::BRANCH_TARGET_COUNT_LO, 5);
            let lost = LostBits::differ(Some(Field::Branch), "target count", bits, found.into(), expected.into());
            decoded[i].lost.extend(lost);
        }
    }
}
