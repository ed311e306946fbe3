//! The lowering both syntaxes share: the pieces of an operand, as either reader finds them in
//! its text (letters, numbers, flags), checked and turned into the values of
//! [`crate::instr`]. A reader words its own diagnostic when a piece does not fit.

use crate::ops::COMPONENTS;

/// The lane a component letter names: `x` 0, `y` 1, `z` 2, `w` 3.
pub(crate) fn lane(letter: u8) -> Option<u8> {
    COMPONENTS.iter().position(|&l| l as u8 == letter).map(|i| i as u8)
}

/// The lane of a one-component suffix, `.` and a letter.
pub(crate) fn component(suffix: &[u8]) -> Option<u8> {
    match suffix {
        [b'.', letter] => lane(*letter),
        _ => None,
    }
}

/// A swizzle of 1 to 4 letters, the last one repeated (`xy` is `xyyy`): two bits a lane.
pub(crate) fn swizzle(letters: &[u8]) -> Option<u8> {
    let last = letters.len().checked_sub(1).filter(|&last| last < 4)?;
    (0..4).try_fold(0u8, |swizzle, i| Some(swizzle | lane(letters[i.min(last)])? << (2 * i)))
}

/// A write mask from its letters, each lane once, and in the order x, y, z, w when
/// `in_order`; no letter is no lane. `Err` holds where the first letter that breaks the rule
/// is.
pub(crate) fn mask(letters: &[u8], in_order: bool) -> Result<u8, usize> {
    letters
        .iter()
        .enumerate()
        .try_fold(0u8, |mask, (i, &letter)| match lane(letter) {
            // In order, no lane at or after this one is set yet.
            Some(lane) if mask >> lane == 0 || (!in_order && mask & 1 << lane == 0) => Ok(mask | 1 << lane),
            _ => Err(i),
        })
}
