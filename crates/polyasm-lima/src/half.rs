//! IEEE binary16 ("half") numbers, the format of the `const0`/`const1` fields: their values,
//! and the half nearest to a number.

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
