//! Instructions to words: each instruction's length, control word and payload, packed as a
//! program streams in ([`Words`]), and the reading of bits back out of words.

use super::*;
use crate::ops::ctrl;

/// Reads `len` bits at bit `at` of `words` (at most 97, so that they lie in four words).
#[doc(hidden)]
pub fn read_bits(words: &[u32], at: u32, len: u32) -> u128 {
    let span = &words[(at / 32) as usize..(at + len).div_ceil(32) as usize];
    let window = span.iter().rev().fold(0u128, |acc, &word| acc << 32 | u128::from(word));
    (window >> (at % 32)) & ((1u128 << len) - 1)
}

/// The length of the instruction starting `relative` words from the start of instruction
/// `from`, if one does (0 otherwise), searching out from `from` (branches mostly go near), so
/// that a big program's branches do not each search the whole list.
pub(crate) fn count_near(starts: &[usize], counts: &[u32], from: usize, relative: i64) -> u32 {
    let Some(offset) = usize::try_from(starts[from] as i64 + relative).ok() else {
        return 0;
    };
    // Widen a window [low, high) around `from` by doubling steps until it holds `offset`.
    let (mut low, mut high) = (from, from + 1);
    let mut step = 1;
    if offset >= starts[from] {
        while high < starts.len() && starts[high] <= offset {
            low = high;
            high = (high + step).min(starts.len());
            step *= 2;
        }
    } else {
        while low > 0 && starts[low] > offset {
            high = low;
            low = low.saturating_sub(step);
            step *= 2;
        }
    }
    starts[low..high].binary_search(&offset).map_or(0, |i| counts[low + i])
}

/// The control word of an instruction of length `count` followed by one of `next_count`
/// (`None` for the last instruction).
pub fn control_word(instr: &Instr, count: u32, next_count: Option<u32>) -> u32 {
    let stop = if instr.stop { ctrl::STOP } else { 0 };
    let sync = if instr.sync { ctrl::SYNC } else { 0 };
    let next = next_count.map_or(0, next_bits);
    count | stop | sync | instr.presence() << ctrl::PRESENCE_SHIFT | next
}

/// The control-word bits of a next instruction of length `next`: `next_count` and `prefetch`.
fn next_bits(next: u32) -> u32 {
    (next & ctrl::NEXT_COUNT_MASK) << ctrl::NEXT_COUNT_SHIFT | ctrl::PREFETCH
}

/// Encodes a program: the instructions back to back, each a control word (length, stop, sync,
/// presence bits, the next instruction's length and `prefetch`, as Mesa's compiler sets them)
/// and its fields. A branch's target-count bits get the length of the instruction at its
/// target, or 0 when no instruction starts there.
pub fn encode(program: &[Instr]) -> Vec<u32> {
    let mut words = Words::with_capacity(program.len(), 0);
    for instr in program {
        words.push(instr);
    }
    words.finish()
}

/// A program's words, encoded an instruction at a time as the program streams in; what
/// [`encode`] gives once [`Words::finish`] is called. A control word gets its next-length bits
/// when the next instruction comes; a branch to an offset keeps a copy of its instruction, whose
/// target [`Words::resolve`] may set later (labels are resolved at the end), and its fields are
/// written again by [`Words::finish`], when the length at its target is known.
#[derive(Clone, Debug, Default)]
pub struct Words {
    words: Vec<u32>,
    /// The word offset of each instruction's control word.
    starts: Vec<usize>,
    /// The length of each instruction in words.
    counts: Vec<u32>,
    /// The instructions with a branch to an offset.
    jumps: Vec<Jump>,
}

/// An instruction with a branch to an offset, kept by [`Words`] until its fields are final.
#[derive(Clone, Debug)]
struct Jump {
    /// Its index in the program.
    at: usize,
    instr: Instr,
    /// The length of the instruction at its target, when the caller knows it.
    target_count: Option<u32>,
}

impl Words {
    /// Room for `instrs` instructions (a fourth of them branches) and `words` words up front.
    pub fn with_capacity(instrs: usize, words: usize) -> Words {
        Words {
            words: Vec::with_capacity(words),
            starts: Vec::with_capacity(instrs),
            counts: Vec::with_capacity(instrs),
            jumps: Vec::with_capacity(instrs / 4),
        }
    }

    /// Appends the words of `instr`; a branch's fields are provisional until [`Words::finish`].
    pub fn push(&mut self, instr: &Instr) {
        let count = instr.count();
        if let Some(&previous) = self.starts.last() {
            self.words[previous] |= next_bits(count);
        }
        if matches!(instr.branch, Some(Branch::Jump { .. })) {
            self.jumps.push(Jump {
                at: self.starts.len(),
                instr: *instr,
                target_count: None,
            });
        }
        let start = self.words.len();
        self.starts.push(start);
        self.counts.push(count);
        self.words.push(control_word(instr, count, None));
        let payload = payload(instr, 0);
        self.words.extend_from_slice(&payload[..count as usize - 1]);
    }

    /// The word offset of each instruction's control word, in order.
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }

    /// How many words the instructions pushed take (after [`Words::finish`] too).
    pub fn len(&self) -> usize {
        let last = self.starts.last().zip(self.counts.last());
        last.map_or(0, |(&start, &count)| start + count as usize)
    }

    /// Whether no instruction was pushed.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The length of instruction `i`, or 0 past the last.
    pub fn count(&self, i: usize) -> u32 {
        self.counts.get(i).copied().unwrap_or(0)
    }

    /// The length of the instruction starting `relative` words from the start of instruction
    /// `from`, 0 when the offset falls inside an instruction; `None` when it is outside these
    /// words (before the first, or from the end on).
    pub fn count_within(&self, from: usize, relative: i64) -> Option<u32> {
        let offset = self.starts[from] as i64 + relative;
        (0..self.len() as i64)
            .contains(&offset)
            .then(|| count_near(&self.starts, &self.counts, from, relative))
    }

    /// How many instructions were pushed.
    pub fn pushed(&self) -> usize {
        self.starts.len()
    }

    /// Sets the target of the branch of instruction `i` to `target` words, and the length of
    /// the instruction there when the caller knows it (else [`Words::finish`] looks it up).
    /// Nothing happens when instruction `i` has no branch to an offset.
    pub fn resolve(&mut self, i: usize, target: i32, target_count: Option<u32>) {
        let Ok(j) = self.jumps.binary_search_by_key(&i, |jump| jump.at) else {
            return;
        };
        let jump = &mut self.jumps[j];
        if let Some(Branch::Jump { target: to, .. }) = &mut jump.instr.branch {
            *to = target;
        }
        jump.target_count = target_count;
    }

    /// The words of the instructions pushed, in their final form: the branches' fields are
    /// written again with their targets and target lengths (looked up here for the ones
    /// [`Words::resolve`] did not give one). The starts stay for [`Words::starts`].
    pub fn finish(&mut self) -> Vec<u32> {
        for jump in std::mem::take(&mut self.jumps) {
            let target_count = match (jump.target_count, jump.instr.branch) {
                (Some(count), _) => count,
                (None, Some(Branch::Jump { target, .. })) => {
                    count_near(&self.starts, &self.counts, jump.at, i64::from(target))
                }
                _ => 0,
            };
            let payload = payload(&jump.instr, target_count as u8);
            let from = self.starts[jump.at] + 1;
            let len = self.counts[jump.at] as usize - 1;
            self.words[from..from + len].copy_from_slice(&payload[..len]);
        }
        std::mem::take(&mut self.words)
    }
}

/// The payload words of `instr` (its fields after the control word), with the branch's
/// target-count bits `target_count`. The longest instruction has every field: 19 words, 18 of
/// them payload.
fn payload(instr: &Instr, target_count: u8) -> [u32; 18] {
    let mut payload = [0u32; 18];
    // The bits not yet written, `pending` of them (below 32 between fields; a field has at
    // most 73), and the next word to write.
    let (mut acc, mut pending, mut next) = (0u128, 0, 0);
    for field in instr.fields() {
        let (bits, len) = (field.pack(target_count), field.field().info().bits);
        acc |= (bits & ((1u128 << len) - 1)) << pending;
        pending += len;
        while pending >= 32 {
            payload[next] = acc as u32;
            acc >>= 32;
            pending -= 32;
            next += 1;
        }
    }
    if pending > 0 {
        payload[next] = acc as u32;
    }
    payload
}
