//! IEEE binary16 ("half") numbers, the format of Lima's `const0`/`const1` fields: their values,
//! and the half nearest to a number or to a decimal text.

/// An IEEE binary16 value as f32 (exact; NaNs keep their payload's top bits).
pub fn to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits & 0x8000) << 16;
    let exponent = u32::from(bits >> 10 & 0x1f);
    let fraction = u32::from(bits & 0x3ff);
    match exponent {
        // Subnormal: fraction * 2^-24, exact in f32.
        0 => {
            let magnitude = fraction as f32 * (1.0 / 16_777_216.0);
            f32::from_bits(sign | magnitude.to_bits())
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | fraction << 13),
        _ => f32::from_bits(sign | (exponent + 112) << 23 | fraction << 13),
    }
}

/// An IEEE binary16 value as f64 (exact).
pub fn to_f64(bits: u16) -> f64 {
    f64::from(to_f32(bits))
}

/// The binary16 number nearest to a finite `value` (ties to even; infinity beyond 65520).
pub fn nearest(value: f64) -> u16 {
    let sign: u16 = if value.is_sign_negative() { 0x8000 } else { 0 };
    let magnitude = value.abs();
    if magnitude < 2f64.powi(-14) {
        // Subnormal: steps of 2^-24; a carry into 1024 is the smallest normal number.
        return sign | (magnitude * 2f64.powi(24)).round_ties_even() as u16;
    }
    let mut exponent = ((magnitude.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut fraction = ((magnitude / 2f64.powi(exponent) - 1.0) * 1024.0).round_ties_even() as u16;
    if fraction == 1024 {
        fraction = 0;
        exponent += 1;
    }
    if exponent > 15 {
        return sign | 0x7c00;
    }
    sign | ((exponent + 15) as u16) << 10 | fraction
}

/// The binary16 value of a constant as Mesa prints it: C's `%f` text (a decimal number,
/// rounded to the nearest binary16 value, ties to even), `inf`, `-inf`, `nan` or `-nan`.
/// `None` when the text is not a number or lies beyond the binary16 range.
pub fn from_text(text: &str) -> Option<u16> {
    let (sign, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (0x8000u16, rest),
        None => (0, text),
    };
    match magnitude {
        "inf" => return Some(sign | 0x7c00),
        "nan" => return Some(sign | 0x7e00),
        _ => {}
    }
    let (whole, fraction) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    let whole = whole.trim_start_matches('0');
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty() && !magnitude.starts_with('0'))
        || !digits_ok(whole)
        || !digits_ok(fraction)
        || magnitude.starts_with('.')
        || magnitude.ends_with('.')
        || whole.len() > 6
        || fraction.len() > 18
    {
        return None;
    }
    // The value is `scaled / 10^k`; a half's value is `units * 2^-24`. Compare exactly in
    // integers: value * 10^k * 2^24.
    let k = fraction.len() as u32;
    let scaled = whole
        .bytes()
        .chain(fraction.bytes())
        .fold(0u128, |n, b| n * 10 + u128::from(b - b'0'));
    let target = scaled << 24;
    let power = 10u128.pow(k);
    // A finite half in units of 2^-24 (exact: a whole number below 2^40).
    let units = |h: u16| (to_f64(h) * 16_777_216.0) as u128;
    let value = |h: u16| units(h) * power;
    const MAX_FINITE: u16 = 0x7bff;
    // The largest half not above the target.
    let (mut lo, mut hi) = (0u16, MAX_FINITE);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if value(mid) <= target {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let low = lo;
    // Past the largest finite value, IEEE rounding gives infinity from 65520 on.
    let high_value = if low == MAX_FINITE {
        units(MAX_FINITE) * 2 - units(MAX_FINITE - 1)
    } else {
        units(low + 1)
    } * power;
    let (to_low, to_high) = (target - value(low), high_value.saturating_sub(target));
    let pick = if to_low < to_high || (to_low == to_high && low & 1 == 0) {
        low
    } else if low == MAX_FINITE {
        return None;
    } else {
        low + 1
    };
    Some(sign | pick)
}
