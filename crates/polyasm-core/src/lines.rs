//! Where lines end. Files from any system (LF, CRLF, CR-only, or mixed) break lines alike:
//! the source's line index, the lexers, the listing and the hex reader all count lines with
//! these.

/// The index of the line break (`\n`, `\r\n` or a lone `\r`) that ends the line holding
/// `from`, or the end of the text.
pub fn line_end(bytes: &[u8], from: usize) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |i| from + i)
}

/// The length of the line break at `at`: 2 for `\r\n`, 1 for `\n` or a lone `\r`, 0 for
/// anything else. Files from any system (LF, CRLF, CR-only, or mixed) break lines alike.
#[inline]
pub fn line_break_len(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'\n') => 1,
        Some(b'\r') if bytes.get(at + 1) == Some(&b'\n') => 2,
        Some(b'\r') => 1,
        _ => 0,
    }
}

/// How many `\n` and `\r` bytes `text` holds: an upper bound of its line count, for sizing
/// buffers up front. Counted 255 bytes at a time in `u8` lanes, which compilers vectorise.
pub fn count_line_breaks(text: &str) -> usize {
    text.as_bytes()
        .chunks(255)
        .map(|chunk| {
            chunk
                .iter()
                .fold(0u8, |n, &b| n + u8::from(b == b'\n') + u8::from(b == b'\r'))
        })
        .map(usize::from)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_line_break_byte() {
        assert_eq!(count_line_breaks(""), 0);
        assert_eq!(count_line_breaks("a\nb\r\nc\rd"), 4);
        let long = "x\n".repeat(1000) + &"\r".repeat(300);
        assert_eq!(count_line_breaks(&long), 1300);
    }

    #[test]
    fn lines_end_at_every_kind_of_break() {
        let text = b"abc_1 x/* c */y\nz/* open";
        assert_eq!(line_end(text, 3), 15);
        assert_eq!(line_end(text, 16), text.len());
        let breaks = b"a\rb\r\nc\nd";
        assert_eq!(line_end(breaks, 0), 1);
        assert_eq!(line_end(breaks, 2), 3);
        assert_eq!(line_end(breaks, 5), 6);
        assert_eq!(line_end(breaks, 7), breaks.len());
        let lengths: Vec<usize> = (0..breaks.len()).map(|i| line_break_len(breaks, i)).collect();
        assert_eq!(lengths, [0, 1, 0, 2, 1, 0, 1, 0]);
    }
}
