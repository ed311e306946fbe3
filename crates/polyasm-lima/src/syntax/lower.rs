//! The lowering both syntaxes share: the pieces of an operand, as either reader finds them in
//! its text (letters, numbers, flags), checked and turned into the values of
//! [`crate::instr`]. A reader words its own diagnostic when a piece does not fit.

use crate::instr::{ScalarReg, ScalarSource, Store, VaryingSource, VecReg, VecSource};
use crate::ops::{self, Alignment, COMPONENTS, CombineOp, OutMod, VaryingAlignment, VaryingKindInfo};

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

/// How a load, store or varying index is written: `N` (a vec4), `N.xy` or `N.zw` (a vec2,
/// its half 0 or 1), or `N.c` (one float, its lane).
#[derive(Clone, Copy, Debug)]
pub(crate) enum IndexForm {
    Vec4,
    Pair(u8),
    Lane(u8),
}

impl IndexForm {
    /// The form an index's suffix gives, the suffix with its `.` (empty for none).
    pub(crate) fn of(suffix: &[u8]) -> Option<IndexForm> {
        match suffix {
            b"" => Some(IndexForm::Vec4),
            b".xy" => Some(IndexForm::Pair(0)),
            b".zw" => Some(IndexForm::Pair(1)),
            _ => component(suffix).map(IndexForm::Lane),
        }
    }

    /// The units of the index field in one `N`, and the unit within them.
    fn scale(self) -> (i64, i64) {
        match self {
            IndexForm::Vec4 => (1, 0),
            IndexForm::Pair(half) => (2, i64::from(half)),
            IndexForm::Lane(lane) => (4, i64::from(lane)),
        }
    }

    /// The index field of `N`; a negative `N` as Mesa prints such a field (C's division and
    /// remainder).
    pub(crate) fn index(self, n: i64) -> i64 {
        let (scale, part) = self.scale();
        if n >= 0 {
            n * scale + part
        } else {
            n * scale - (scale - part) % scale
        }
    }

    /// The greatest `N` whose index field is at most `limit`.
    pub(crate) fn largest(self, limit: i64) -> i64 {
        let (scale, part) = self.scale();
        (limit - part) / scale
    }

    /// The alignment of a load or store of this form.
    pub(crate) fn alignment(self) -> Alignment {
        match self {
            IndexForm::Vec4 => Alignment::Vec4,
            IndexForm::Pair(_) => Alignment::Vec2,
            IndexForm::Lane(_) => Alignment::Scalar,
        }
    }

    /// The alignment of a varying fetch of this form.
    pub(crate) fn varying_alignment(self) -> VaryingAlignment {
        match self {
            IndexForm::Vec4 => VaryingAlignment::Vec4,
            IndexForm::Pair(_) => VaryingAlignment::Vec2,
            IndexForm::Lane(_) => VaryingAlignment::Scalar,
        }
    }
}

/// Whether a varying fetch's offset register reads as no offset: the field's vector number
/// 15 means none.
pub(crate) fn means_no_offset(offset: ScalarReg) -> bool {
    u32::from(offset >> 2) == ops::fixed::NO_OFFSET_VECTOR
}

/// Whether the destination of a scalar op of the combiner is its vector form, when the text
/// does not say: a destination of one component reads as the scalar form, but as Mesa's
/// compiler writes the op for atan and atan2 (the vector form), unless it has an output
/// modifier, which only the scalar form has; any other destination is the vector form.
pub(crate) fn combine_vector(op: CombineOp, outmod: OutMod, one_component: bool) -> bool {
    !one_component || (ops::proposed::COMBINE_VECTOR_DEFAULT.contains(&op) && outmod == OutMod::None)
}

/// The fixed inputs a varying can read, each with its row: the name either syntax writes for
/// it is there.
pub(crate) static FIXED_INPUTS: [(&VaryingKindInfo, VaryingSource); 3] = [
    (&ops::VARYING_FRAG_COORD, VaryingSource::FragCoord),
    (&ops::VARYING_POINT_COORD, VaryingSource::PointCoord),
    (&ops::VARYING_FRONT_FACING, VaryingSource::FrontFacing),
];

/// A vector source and its `mul_in` bit: register `reg` with a swizzle and modifiers, or,
/// with no register, the vector multiplier's result (`^v0`), which the field reads as
/// register 0 with `mul_in` set.
pub(crate) fn vec_source(reg: Option<VecReg>, swizzle: u8, abs: bool, neg: bool) -> (VecSource, bool) {
    let source = VecSource {
        reg: reg.unwrap_or(0),
        swizzle,
        abs,
        neg,
    };
    (source, reg.is_none())
}

/// A scalar source and its `mul_in` bit: scalar register `reg` with modifiers, or, with no
/// register, the scalar multiplier's result (`^s0`), read as register 0 with `mul_in` set.
pub(crate) fn scalar_source(reg: Option<ScalarReg>, abs: bool, neg: bool) -> (ScalarSource, bool) {
    let source = ScalarSource {
        reg: reg.unwrap_or(0),
        abs,
        neg,
    };
    (source, reg.is_none())
}

/// A store of register `reg` to the temporaries at `index` of `alignment`, offset by a
/// register; `lane` is the one float a one-float index stores. A whole register after a
/// one-float index is how Mesa prints alignment 3 (`Reserved`), its source the register's
/// first lane.
pub(crate) fn temp_store(
    alignment: Alignment,
    index: u16,
    offset: Option<ScalarReg>,
    reg: VecReg,
    lane: Option<u8>,
) -> Store {
    let alignment = match (alignment, lane) {
        (Alignment::Scalar, None) => Alignment::Reserved,
        _ => alignment,
    };
    let source = reg * 4 + lane.unwrap_or(0);
    Store::Temp {
        alignment,
        index,
        offset,
        source,
    }
}
