//! Small text helpers every dialect's lexer and encoder share.

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

/// FNV-1a: a fast hash for the short names an assembler looks up per line (uniforms, labels),
/// where the standard library's DoS-resistant SipHash costs more than the rest of the lookup.
#[derive(Clone, Copy, Debug)]
pub struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> Self {
        NameHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A map keyed by names, hashed with [`NameHasher`].
pub type NameMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<NameHasher>>;

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

/// `a`, `a or b`, `a, b or c`: alternatives for an "expected ..." message, sorted, once each.
pub fn list_alternatives(mut items: Vec<String>) -> String {
    items.sort();
    items.dedup();
    match items.as_slice() {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Edit distance between two short strings (insertions, deletions, substitutions).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(&lower, c), c))
        .filter(|&(d, c)| d <= limit || (c.len() > 1 && lower.starts_with(c)))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
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
    fn name_maps_hash_with_fnv_1a() {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = NameHasher::default();
        hasher.write(b"a");
        // The published FNV-1a 64-bit value of "a".
        assert_eq!(hasher.finish(), 0xaf63_dc4c_8601_ec8c);
        let build = std::hash::BuildHasherDefault::<NameHasher>::default();
        assert_ne!(build.hash_one("#mvp"), build.hash_one("#mvq"));
        let mut map = NameMap::default();
        map.insert("#light", 12);
        assert_eq!(map.get("#light"), Some(&12));
        assert_eq!(map.get("#Light"), None);
    }

    #[test]
    fn lists_alternatives_in_prose() {
        assert_eq!(list_alternatives(vec![]), "something else");
        assert_eq!(list_alternatives(vec!["b".into(), "a".into(), "b".into()]), "a or b");
        assert_eq!(list_alternatives(vec!["c".into(), "a".into(), "b".into()]), "a, b or c");
    }

    #[test]
    fn suggests_close_names_only() {
        let ops = ["ld", "ldc", "add", "mulm", "atan2"];
        assert_eq!(suggest("mul", ops), Some("mulm"));
        assert_eq!(suggest("ADD", ops), Some("add"));
        assert_eq!(suggest("atan3", ops), Some("atan2"));
        assert_eq!(suggest("frobnicate", ops), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
