//! The operands of Mesa's text: registers, swizzles, masks, indices, varyings and numbers.

use crate::instr::{
    CombineDest, ScalarReg, ScalarSource, Varying, VaryingFetch, VaryingSource, VecDest, VecReg, VecSource,
};
use crate::ops::proposed::Pipeline;
use crate::ops::{self, Alignment, CombineOp, MulOp, OutMod, Perspective, VEC_REG_NAMES};
use crate::syntax::lower::{self, IndexForm};

use super::word::*;

pub use polyasm_core::half::from_text as half_from_text;

pub(super) fn no_outmod(name: Word, outmod: OutMod) -> Result<(), MesaError> {
    match outmod {
        OutMod::None => Ok(()),
        _ => Err(name.misplaced(
            "an operation of this form with an output modifier",
            "`mul.s2` has no output modifier; `atan_pt2.s2` writes it before its destination (`atan_pt2.s2 .sat$0.w $5`)",
        )),
    }
}

/// `.sat$0.w` -> (sat, `$0.w`).
pub(super) fn split_outmod_prefix(word: Word) -> (OutMod, Word) {
    let mut outmods = ops::OUTMODS.iter().filter(|r| !r.mesa.is_empty());
    outmods
        .find_map(|r| Some((r.value, word.strip_prefix(r.mesa)?)))
        .unwrap_or((OutMod::None, word))
}

/// The source with its `<<N` shift taken off: the op number `mul` gets (0-7); only `mul`
/// takes a shift.
pub(super) fn with_shift(word: Word, op: MulOp) -> Result<(Word, u8), MesaError> {
    let Some(at) = word.text.find("<<") else {
        return Ok((word, ops::mul_op_code(op, 0)));
    };
    let shift = word.from(at);
    if op != MulOp::Mul {
        return Err(shift.misplaced("after a source of this op", "only `mul` takes a shift (`<<1` to `<<7`)"));
    }
    let number = shift.from(2);
    let code = decimal(number, "a shift")?;
    if code >= u64::from(ops::MUL_SHIFT_CODES) {
        return Err(number.out_of_range("shift", "0 to 7, the raw op number"));
    }
    Ok((word.until(at), code as u8))
}

/// A decimal number without sign.
pub(super) fn decimal(word: Word, what: &'static str) -> Result<u64, MesaError> {
    if word.text.is_empty() || !word.text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(word.expected(what));
    }
    // More than 18 digits cannot fit any field; refuse them before they overflow.
    if word.text.len() > 18 {
        return Err(word.out_of_range("number", "too many digits"));
    }
    Ok(word.text.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0')))
}

/// A decimal number with an optional `-`. An error quotes the number as written, sign and all.
pub(super) fn signed_decimal(word: Word, what: &'static str) -> Result<i64, MesaError> {
    let negative = word.strip_prefix("-");
    let value = decimal(negative.unwrap_or(word), what).map_err(|error| match error.kind {
        MesaErrorKind::OutOfRange { what, range, .. } => word.out_of_range(what, range),
        _ => word.expected(what),
    })? as i64;
    Ok(if negative.is_some() { -value } else { value })
}

/// `biasHHH`: the constant LOD bias as 3 hex digits of a 9-bit two's complement number.
pub(super) fn lod_bias_constant(word: Word) -> Result<i16, MesaError> {
    let digits = word
        .strip_prefix(ops::TEXLD_BIAS_PREFIX)
        .filter(|d| d.text.len() == 3 && d.text.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| word.expected("the constant LOD bias as `bias` and 3 hex digits, like `bias000`"))?;
    let value = u16::from_str_radix(digits.text, 16).expect("invariant: 3 hex digits");
    if value > 0x1ff {
        return Err(digits.out_of_range("LOD bias", "000 to 1ff, 9 bits"));
    }
    Ok(((value << 7) as i16) >> 7)
}

/// `N[+$r.c]`: the number and the offset register.
pub(super) fn split_offset(word: Word) -> Result<(Word, Option<ScalarReg>), MesaError> {
    // A `+` after the first character: a leading sign belongs to the number.
    match word.text.get(1..).and_then(|t| t.find('+')) {
        Some(i) => {
            let at = i + 1;
            let offset = plain_scalar(word.from(at + 1), "an offset register")?;
            Ok((word.until(at), Some(offset)))
        }
        None => Ok((word, None)),
    }
}

/// An index as written, `N`, `N.xy`/`N.zw` or `N.c` with an optional `+$r.c`: its form and
/// number `N`, and the offset register.
fn index_form(word: Word, signed: bool) -> Result<(IndexForm, i64, Option<ScalarReg>), MesaError> {
    const WHAT: &str = "an index such as `3`, `1.xy` or `2.w`";
    // A digit first (after a `-` where the index is signed): `--5`, `-+5` and `+5` are quoted
    // whole, not read as a sign and an offset.
    let unsigned = word.strip_prefix("-").filter(|_| signed).unwrap_or(word);
    if !unsigned.text.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(word.expected(WHAT));
    }
    let (number, offset) = split_offset(word)?;
    let digits_from = usize::from(signed && number.text.starts_with('-'));
    let digits = number.text[digits_from..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let value = decimal(number.from(digits_from).until(digits), WHAT)? as i64;
    let value = if digits_from == 1 { -value } else { value };
    let suffix = number.from(digits_from + digits);
    let form = IndexForm::of(suffix.text.as_bytes())
        .ok_or_else(|| suffix.expected("the end of the index, `.xy`, `.zw` or one component"))?;
    Ok((form, value, offset))
}

/// A load or store index (16 bits, printed as a signed number), the alignment its form gives
/// and the offset register. Negative numbers read back as Mesa prints them: C's division and
/// two's complement remainder.
pub(super) fn memory_index(word: Word) -> Result<(Alignment, u16, Option<ScalarReg>), MesaError> {
    let (form, n, offset) = index_form(word, true)?;
    let index = form.index(n);
    if !(-0x8000..=0xffff).contains(&index) {
        return Err(word.out_of_range("index", "16 bits: -32768 to 65535 in the index's own units"));
    }
    Ok((form.alignment(), index as u16, offset))
}

/// A varying index (6 bits) and the alignment its form gives.
pub(super) fn varying_fetch(word: Word) -> Result<VaryingFetch, MesaError> {
    let (form, n, offset) = index_form(word, false)?;
    let index = form.index(n);
    if index > 63 {
        return Err(word.out_of_range("varying index", "6 bits: 0-63 floats, 0-31 pairs or 0-15 vec4s"));
    }
    if offset.is_some_and(lower::means_no_offset) {
        return Err(word.misplaced(
            "a varying offset",
            "the offset register's number 15 means no offset: use `$0.x` to `^texture.w`",
        ));
    }
    Ok(VaryingFetch {
        alignment: form.varying_alignment(),
        index: index as u8,
        offset,
    })
}

pub(super) fn read_varying(
    perspective: Perspective,
    name: Word,
    dest: Word,
    source: Word,
) -> Result<Varying, MesaError> {
    let (dest, mask_text) = match dest.strip_prefix(Pipeline::Discard.name()) {
        Some(rest) => (ops::VARYING_DISCARD, rest),
        None => dest_register(dest)?,
    };
    let mask = read_mask(mask_text, true)?;
    let call = |kind: &ops::VaryingKindInfo| {
        source
            .strip_prefix(kind.mesa)
            .and_then(|w| w.strip_prefix("("))
            .and_then(|w| w.strip_suffix(")"))
    };
    let starts_with_digit = |w: Word| w.text.starts_with(|c: char| c.is_ascii_digit());
    let source = if let Some(inner) = call(&ops::VARYING_CUBE) {
        if starts_with_digit(inner) {
            VaryingSource::Cube(varying_fetch(inner)?)
        } else {
            VaryingSource::CubeRegister(read_vec_source(inner, false)?.0)
        }
    } else if let Some(inner) = call(&ops::VARYING_NORMALIZE) {
        VaryingSource::Normalize(read_vec_source(inner, false)?.0)
    } else if let Some((_, kind)) = lower::FIXED_INPUTS.iter().find(|(info, _)| info.mesa == source.text) {
        *kind
    } else if starts_with_digit(source) {
        VaryingSource::Fetch {
            perspective,
            fetch: varying_fetch(source)?,
        }
    } else {
        VaryingSource::Register {
            perspective,
            source: read_vec_source(source, false)?.0,
        }
    };
    let plain = matches!(source, VaryingSource::Fetch { .. } | VaryingSource::Register { .. });
    if perspective != Perspective::None && !plain {
        return Err(name.misplaced(
            "the name of this varying source",
            "a perspective divide goes only with a varying or a register source: write `load.v`",
        ));
    }
    Ok(Varying { dest, mask, source })
}

/// The component letter at the start of `word` after a `.`.
pub(super) fn component(word: Word) -> Option<(u8, Word)> {
    let c = lower::component(word.text.as_bytes().get(..2)?)?;
    Some((c, word.from(2)))
}

/// `$N` for a destination (N up to 15), and what follows.
pub(super) fn dest_register(word: Word) -> Result<(VecReg, Word), MesaError> {
    let Some(rest) = word.strip_prefix("$") else {
        if word.text.starts_with('^') {
            return Err(word.misplaced(
                "a destination",
                "destinations are registers `$0` to `$15` (a varying may also write `^discard`)",
            ));
        }
        return Err(word.expected("a destination register such as `$1`"));
    };
    let digits = rest.text.bytes().take_while(u8::is_ascii_digit).count();
    let number = decimal(rest.until(digits), "a register number")?;
    if number > 15 {
        return Err(word.until(digits + 1).out_of_range("register", "$0 to $15"));
    }
    Ok((number as u8, rest.from(digits)))
}

/// A register at the start of a source: `$N` (N up to 11) or a pipeline register.
pub(super) fn source_register(word: Word) -> Result<(VecReg, Word), MesaError> {
    if word.text.starts_with('$') {
        let (reg, rest) = dest_register(word)?;
        if reg >= ops::GENERAL_REGS {
            return Err(word.until(word.text.len() - rest.text.len()).out_of_range(
                "source register",
                "$0 to $11; numbers 12-15 are ^const0, ^const1, ^texture and ^uniform",
            ));
        }
        return Ok((reg, rest));
    }
    for (reg, name) in VEC_REG_NAMES.iter().enumerate().skip(usize::from(ops::GENERAL_REGS)) {
        if let Some(rest) = word.strip_prefix(name) {
            return Ok((reg as u8, rest));
        }
    }
    if word.text.starts_with(Pipeline::Vmul.name()) || word.text.starts_with(Pipeline::Fmul.name()) {
        return Err(word.misplaced(
            "this source",
            "`^v0` is only the first source of a `.v1` op, `^s0` only of a `.s1` op",
        ));
    }
    Err(word.expected("a register such as `$1` or `^const0`"))
}

/// A write mask after a destination: nothing (all lanes) or `.` and lanes; `.` alone (no
/// lane) only where `empty` allows it.
pub(super) fn read_mask(word: Word, empty: bool) -> Result<u8, MesaError> {
    let Some(letters) = word.strip_prefix(".") else {
        if word.text.is_empty() {
            return Ok(ops::MASK_ALL);
        }
        return Err(word.expected("a write mask such as `.xyz`"));
    };
    let mask = lower::mask(letters.text.as_bytes(), false).map_err(|i| {
        letters
            .from(i)
            .expected("the lanes of a write mask, each once, from xyzw")
    })?;
    if mask == 0 && !empty {
        return Err(word.expected("a write mask with at least one lane"));
    }
    Ok(mask)
}

/// A swizzle after a register: nothing (`.xyzw`) or `.` and four letters.
pub(super) fn swizzle_of(word: Word) -> Result<(u8, Word), MesaError> {
    let Some(letters) = word.strip_prefix(".") else {
        return Ok((ops::SWIZZLE_IDENTITY, word));
    };
    // Exactly four letters: Mesa prints every swizzle whole.
    let swizzle = (letters.text.as_bytes().get(..4))
        .and_then(lower::swizzle)
        .ok_or_else(|| word.expected("a swizzle of four letters from xyzw"))?;
    Ok((swizzle, letters.from(4)))
}

/// `-` and `abs( )` around `inner`.
pub(super) fn modifiers(word: Word) -> Result<(bool, bool, Word), MesaError> {
    let rest = word.strip_prefix("-");
    let (neg, word) = (rest.is_some(), rest.unwrap_or(word));
    match word.strip_prefix("abs(") {
        Some(inner) => match inner.strip_suffix(")") {
            Some(inner) => Ok((neg, true, inner)),
            None => Err(inner.expected("`)` closing `abs(`")),
        },
        None => Ok((neg, false, word)),
    }
}

/// A vector source; `vmul` allows `^v0` (returned as `true`, register 0).
pub(super) fn read_vec_source(word: Word, vmul: bool) -> Result<(VecSource, bool), MesaError> {
    let (neg, abs, inner) = modifiers(word)?;
    let (reg, rest) = match inner.strip_prefix(Pipeline::Vmul.name()) {
        Some(rest) if vmul => (None, rest),
        _ => source_register(inner).map(|(reg, rest)| (Some(reg), rest))?,
    };
    let (swizzle, rest) = swizzle_of(rest)?;
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the source"));
    }
    Ok(lower::vec_source(reg, swizzle, abs, neg))
}

/// A scalar source; `fmul` allows `^s0` (returned as `true`, register 0).
pub(super) fn read_scalar_source(word: Word, fmul: bool) -> Result<(ScalarSource, bool), MesaError> {
    let (neg, abs, inner) = modifiers(word)?;
    if fmul && inner.text == Pipeline::Fmul.name() {
        return Ok(lower::scalar_source(None, abs, neg));
    }
    let (reg, rest) = source_register(inner)?;
    let Some((c, rest)) = component(rest) else {
        return Err(rest.expected("one component, like `.x`"));
    };
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the source"));
    }
    Ok(lower::scalar_source(Some(reg * 4 + c), abs, neg))
}

/// A scalar register without modifiers.
pub(super) fn plain_scalar(word: Word, place: &'static str) -> Result<ScalarReg, MesaError> {
    let (source, _) = read_scalar_source(word, false)?;
    if source.abs || source.neg {
        return Err(word.misplaced(place, "this operand takes no `-` or `abs()`"));
    }
    Ok(source.reg)
}

/// A vector register with a swizzle and no modifiers.
pub(super) fn plain_vector(word: Word) -> Result<(VecReg, u8), MesaError> {
    let (source, _) = read_vec_source(word, false)?;
    if source.abs || source.neg {
        return Err(word.misplaced("the vector operand", "this operand takes no `-` or `abs()`"));
    }
    Ok((source.reg, source.swizzle))
}

/// A vector register alone: no swizzle, no modifiers.
pub(super) fn plain_vector_register(word: Word) -> Result<VecReg, MesaError> {
    let (reg, rest) = source_register(word)?;
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the register (a vec2 or vec4 store names a whole register)"));
    }
    Ok(reg)
}

/// `$N.c` as a scalar destination.
pub(super) fn scalar_dest(word: Word) -> Result<ScalarReg, MesaError> {
    let (reg, rest) = dest_register(word)?;
    match component(rest) {
        Some((c, rest)) if rest.text.is_empty() => Ok(reg * 4 + c),
        _ => Err(rest.expected("one component, like `.x`")),
    }
}

/// A vector destination and its mask.
pub(super) fn read_vec_dest(word: Word, empty: bool) -> Result<VecDest, MesaError> {
    let (reg, rest) = dest_register(word)?;
    Ok(VecDest {
        reg,
        mask: read_mask(rest, empty)?,
    })
}

/// The destination of a scalar op of the complex unit. `$N.c` prints the same for a scalar
/// destination and a vector one with a one-lane mask: it is read as Mesa's compiler writes
/// the op (scalar for rcp to cos, vector for atan and atan2), or as scalar when an output
/// modifier is written, which only the scalar form has.
pub(super) fn combine_dest(op: CombineOp, outmod: OutMod, word: Word) -> Result<CombineDest, MesaError> {
    let (reg, rest) = dest_register(word)?;
    if let Some((c, after)) = component(rest)
        && after.text.is_empty()
        && !lower::combine_vector(op, outmod, true)
    {
        return Ok(CombineDest::Scalar {
            reg: reg * 4 + c,
            outmod,
        });
    }
    let mask = read_mask(rest, true)?;
    if outmod != OutMod::None {
        return Err(word.misplaced(
            "the destination of an op with an output modifier",
            "an output modifier goes only with one component, like `$0.x`",
        ));
    }
    Ok(CombineDest::Vector(VecDest { reg, mask }))
}
