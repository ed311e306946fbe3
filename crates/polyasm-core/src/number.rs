//! Numbers as the dialects write them: integer literals, plain decimal numbers with a
//! maximum, decimal literals as `f32` or `f64`, and where a number token ends for the lexers that read
//! one.

use crate::front::{is_ident_continue, scan_while};

/// Why an integer literal could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntLiteralError {
    /// A prefix such as `0x` with no digits after it.
    NoDigits,
    /// A character that is not a digit of the literal's radix, at this byte offset.
    InvalidDigit(usize),
    /// The value does not fit in 64 bits.
    Overflow,
}

impl IntLiteralError {
    /// What is wrong, as a diagnostic's label says it; every dialect uses these words.
    pub fn label(self) -> &'static str {
        match self {
            IntLiteralError::NoDigits => "no digits after the prefix",
            IntLiteralError::InvalidDigit(_) => "not a digit of this base",
            IntLiteralError::Overflow => "more than 64 bits",
        }
    }

    /// How to fix it, as a diagnostic's help line says it.
    pub fn help(self) -> &'static str {
        match self {
            IntLiteralError::NoDigits => "write digits after `0x`, `0b` or `0o`",
            IntLiteralError::InvalidDigit(_) => "numbers are decimal, `0x` hex, `0b` binary or `0o` octal",
            IntLiteralError::Overflow => "use a smaller value",
        }
    }
}

/// Reads a Rust-style integer literal: decimal, `0x`, `0o` or `0b`, with `_` separators.
pub fn parse_int_literal(text: &str) -> Result<u64, IntLiteralError> {
    let (radix, digits, prefix_len) = match text.as_bytes() {
        [b'0', b'x' | b'X', ..] => (16, &text[2..], 2),
        [b'0', b'o' | b'O', ..] => (8, &text[2..], 2),
        [b'0', b'b' | b'B', ..] => (2, &text[2..], 2),
        _ => (10, text, 0),
    };
    let mut value: u64 = 0;
    let mut seen_digit = false;
    for (i, c) in digits.char_indices() {
        if c == '_' {
            continue;
        }
        let digit = c.to_digit(radix).ok_or(IntLiteralError::InvalidDigit(prefix_len + i))?;
        value = value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(digit as u64))
            .ok_or(IntLiteralError::Overflow)?;
        seen_digit = true;
    }
    if seen_digit {
        Ok(value)
    } else {
        Err(IntLiteralError::NoDigits)
    }
}

/// Whether a plain decimal number may start with a `0` before other digits (`007`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeadingZeros {
    /// `007` reads as 7.
    Allowed,
    /// `007` is refused ([`DecimalProblem::LeadingZeros`]).
    Refused,
}

/// Why text is no plain decimal number of at most the maximum ([`parse_decimal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalProblem {
    /// Empty, or a byte that is not an ASCII digit (a sign too).
    NotDigits,
    /// A `0` before other digits, where [`LeadingZeros::Refused`].
    LeadingZeros,
    /// More than the maximum.
    OutOfRange,
}

/// Reads a plain decimal number: ASCII digits only (no sign, no `_`), at most `max`, and with
/// no `0` before other digits unless `zeros` allows them. The problems are checked in that
/// order: digits, leading zeros, range.
pub fn parse_decimal(text: &str, max: u64, zeros: LeadingZeros) -> Result<u64, DecimalProblem> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return Err(DecimalProblem::NotDigits);
    }
    if zeros == LeadingZeros::Refused && bytes.len() > 1 && bytes[0] == b'0' {
        return Err(DecimalProblem::LeadingZeros);
    }
    bytes.iter().try_fold(0u64, |value, &b| {
        value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
            .filter(|&v| v <= max)
            .ok_or(DecimalProblem::OutOfRange)
    })
}

/// Why a decimal number literal is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberProblem {
    /// `0x1f`: hexadecimal.
    Hex,
    /// A character that does not belong at this byte of the literal.
    Unexpected {
        /// The byte offset of `c` in the literal (`1.2.3`: 3).
        at: usize,
        /// The character found there.
        c: char,
    },
    /// No digit before or after the point: `.`, `-.`.
    NoDigits,
    /// An `e` with no digits after it: `1e`, `2E+`.
    NoExponentDigits,
}

/// Why a decimal number literal is no `f32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatError {
    /// It is malformed, for the reason given.
    Malformed(NumberProblem),
    /// It rounds to infinity.
    OutOfRange,
}

/// Reads a decimal number literal (shader-asm's): `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`,
/// rounded to the nearest f32. A literal that rounds to infinity is an error; one that
/// rounds to a subnormal or to 0 is not.
pub fn parse_f32(text: &str) -> Result<f32, FloatError> {
    parse_float(text)
}

/// [`parse_f32`], rounded to the nearest `f64` instead (Lima's proposed syntax, whose
/// constants must be exact in binary16).
pub fn parse_f64(text: &str) -> Result<f64, FloatError> {
    parse_float(text)
}

/// A decimal number literal, as [`parse_f32`] reads it, rounded to the nearest `F`.
fn parse_float<F: std::str::FromStr + Into<f64> + Copy>(text: &str) -> Result<F, FloatError> {
    let bytes = text.as_bytes();
    let malformed = |problem| Err(FloatError::Malformed(problem));
    let digits_from = |i: usize| {
        bytes[i.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    if matches!(bytes.get(i..i + 2), Some(b"0x" | b"0X")) {
        return malformed(NumberProblem::Hex);
    }
    let integer = digits_from(i);
    i += integer;
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        fraction = digits_from(i + 1);
        i += 1 + fraction;
    }
    if integer + fraction == 0 {
        return malformed(NumberProblem::NoDigits);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exponent = digits_from(j);
        if exponent == 0 {
            if j >= bytes.len() {
                return malformed(NumberProblem::NoExponentDigits);
            }
            i = j;
        } else {
            i = j + exponent;
        }
    }
    if let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
        return malformed(NumberProblem::Unexpected { at: i, c });
    }
    match text.parse::<F>() {
        Ok(value) if value.into().is_finite() => Ok(value),
        Ok(_) => Err(FloatError::OutOfRange),
        Err(_) => malformed(NumberProblem::NoDigits),
    }
}

/// The end of a number token read loosely (shader-asm), starting at `start` (a digit, a `.`
/// or a sign): every identifier byte and `.` after it, and a sign only as an exponent's
/// (`1e-3`, `4E+2`). What the token holds is checked when it is read as a number.
#[inline]
pub fn loose_number_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start + 1;
    loop {
        end = scan_while(bytes, end, |b| is_ident_continue(b) || b == b'.');
        match (bytes.get(end), bytes[end - 1]) {
            (Some(b'+' | b'-'), b'e' | b'E') => end += 1,
            _ => return end,
        }
    }
}

/// Whether a decimal number starts at `at`: a digit, or a `.` before a digit.
#[inline]
pub fn starts_number(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at) {
        Some(b) if b.is_ascii_digit() => true,
        Some(b'.') => bytes.get(at + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

/// The end of the decimal number starting at `start` (a digit, a sign or a `.` before a
/// digit): `[+-]? digits? (. digits)? ([eE] [+-]? digits)?`, then any identifier characters
/// glued on. A `.` followed by a letter is a suffix, not a fraction: `0.xy` is `0` and `.xy`.
#[inline]
pub fn number_end(bytes: &[u8], start: usize) -> usize {
    let digits = |from| scan_while(bytes, from, |b| b.is_ascii_digit());
    let mut end = start;
    if matches!(bytes[end], b'+' | b'-') {
        end += 1;
    }
    end = digits(end);
    if bytes.get(end) == Some(&b'.')
        && !bytes
            .get(end + 1)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        end = digits(end + 1);
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut at = end + 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if bytes.get(at).is_some_and(u8::is_ascii_digit) {
            end = digits(at);
        }
    }
    scan_while(bytes, end, is_ident_continue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_radix_and_separator() {
        assert_eq!(parse_int_literal("15"), Ok(15));
        assert_eq!(parse_int_literal("0b1_111"), Ok(15));
        assert_eq!(parse_int_literal("0xF"), Ok(15));
        assert_eq!(parse_int_literal("0o17"), Ok(15));
        assert_eq!(parse_int_literal("0x"), Err(IntLiteralError::NoDigits));
        assert_eq!(parse_int_literal("0b102"), Err(IntLiteralError::InvalidDigit(4)));
        assert_eq!(parse_int_literal("12a"), Err(IntLiteralError::InvalidDigit(2)));
        assert_eq!(
            parse_int_literal("99999999999999999999999"),
            Err(IntLiteralError::Overflow)
        );
    }

    #[test]
    fn plain_decimals_say_what_is_wrong_in_order() {
        use LeadingZeros::{Allowed, Refused};
        assert_eq!(parse_decimal("65535", 65535, Refused), Ok(65535));
        assert_eq!(parse_decimal("0", 0, Refused), Ok(0));
        assert_eq!(parse_decimal("007", 7, Allowed), Ok(7));
        assert_eq!(parse_decimal("0000000000000000000000001", 1, Allowed), Ok(1));
        assert_eq!(parse_decimal("007", 7, Refused), Err(DecimalProblem::LeadingZeros));
        assert_eq!(parse_decimal("00", 7, Refused), Err(DecimalProblem::LeadingZeros));
        // Leading zeros come before the range.
        assert_eq!(parse_decimal("099999", 7, Refused), Err(DecimalProblem::LeadingZeros));
        assert_eq!(parse_decimal("65536", 65535, Refused), Err(DecimalProblem::OutOfRange));
        assert_eq!(
            parse_decimal("99999999999999999999999", u64::MAX, Allowed),
            Err(DecimalProblem::OutOfRange)
        );
        assert_eq!(parse_decimal("18446744073709551615", u64::MAX, Allowed), Ok(u64::MAX));
        for text in ["", "+5", "-5", "1_000", "12a", " 1", "٣"] {
            assert_eq!(
                parse_decimal(text, u64::MAX, Allowed),
                Err(DecimalProblem::NotDigits),
                "{text}"
            );
        }
    }

    #[test]
    fn number_tokens_end_where_each_lexer_says() {
        assert_eq!(loose_number_end(b"1.5e-3)", 0), 6);
        assert_eq!(loose_number_end(b"2-1", 0), 1);
        assert_eq!(loose_number_end(b"0x1fz, 1", 0), 5);
        assert_eq!(number_end(b"-1.5e+2 x", 0), 7);
        assert_eq!(number_end(b"0.xy", 0), 1);
        assert_eq!(number_end(b"3e x", 0), 2);
        assert!(starts_number(b".5", 0));
        assert!(!starts_number(b".x", 0));
        assert!(!starts_number(b"", 0));
    }

    #[test]
    fn reads_every_form_of_decimal_number() {
        for (text, value) in [
            ("1", 1.0),
            ("-2.5", -2.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e-3", 1e-3),
            ("+4E2", 400.0),
            ("-0", -0.0),
            ("3.4028235e38", f32::MAX),
            ("1e-50", 0.0),
            ("1.4e-45", f32::from_bits(1)),
        ] {
            assert_eq!(parse_f32(text).map(f32::to_bits), Ok(value.to_bits()), "{text}");
        }
    }

    #[test]
    fn names_what_is_wrong_with_a_decimal_number() {
        use NumberProblem::*;
        let malformed = |p| Err(FloatError::Malformed(p));
        assert_eq!(parse_f32("0x1f"), malformed(Hex));
        assert_eq!(parse_f32("-0X1"), malformed(Hex));
        assert_eq!(parse_f32("."), malformed(NoDigits));
        assert_eq!(parse_f32("-.e3"), malformed(NoDigits));
        assert_eq!(parse_f32("1e"), malformed(NoExponentDigits));
        assert_eq!(parse_f32("1e+"), malformed(NoExponentDigits));
        assert_eq!(parse_f32("1.2.3"), malformed(Unexpected { at: 3, c: '.' }));
        assert_eq!(parse_f32("1_000"), malformed(Unexpected { at: 1, c: '_' }));
        assert_eq!(parse_f32("1.5f"), malformed(Unexpected { at: 3, c: 'f' }));
        assert_eq!(parse_f32("1ex"), malformed(Unexpected { at: 2, c: 'x' }));
        assert_eq!(parse_f32("3.5e38"), Err(FloatError::OutOfRange));
        assert_eq!(parse_f32("-1e999999999999999999"), Err(FloatError::OutOfRange));
    }
}
