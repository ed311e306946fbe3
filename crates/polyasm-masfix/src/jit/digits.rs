//! The table that gives the count of decimal digits of a 16-bit number from its bit length.

/// For each bit length less one (0 to 15) of a 16-bit number: its fewest digits in the high
/// half, and in the low half what makes the number carry into it when it has one digit more
/// (2^32 less the power of ten between, where one is).
pub(super) static DIGITS: [u64; 16] = digit_table();

const fn digit_table() -> [u64; 16] {
    let mut table = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let low = 1u64 << bits;
        let (mut digits, mut power) = (1u64, 10u64);
        while power <= low {
            digits += 1;
            power *= 10;
        }
        table[bits] = digits << 32;
        if power < low << 1 {
            table[bits] += (1 << 32) - power;
        }
        bits += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::DIGITS;

    #[test]
    fn the_digit_table_counts_the_digits_of_every_16_bit_number() {
        for v in 0..=u64::from(u16::MAX) {
            let bits = 63 - (v | 1).leading_zeros() as usize;
            let count = (v + DIGITS[bits]) >> 32;
            assert_eq!(count, v.to_string().len() as u64, "{v}");
        }
    }
}
