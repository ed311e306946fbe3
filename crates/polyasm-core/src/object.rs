//! The assembled result every dialect returns.

use crate::source::{SourceId, Span};

/// Reads little-endian words of 2 or 4 bytes; a partial word at the end is ignored.
pub fn le_words(bytes: &[u8], word_bytes: usize) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks_exact(word_bytes).map(|c| match c {
        [a, b] => u16::from_le_bytes([*a, *b]) as u32,
        [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
        _ => unreachable!("words are 2 or 4 bytes"),
    })
}

/// One statement's share of the output: where it sits and which source produced it. Kept to
/// 28 bytes: a big program has one per instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingEntry {
    /// The address in the dialect's own unit (an instruction index for most dialects).
    pub address: u32,
    /// Byte offset of the statement's first byte in [`Object::bytes`].
    pub offset: u32,
    /// How many bytes the statement produced.
    pub len: u32,
    /// The statement in the source; `None` for words the assembler adds itself (see
    /// [`Object::note`]).
    pub span: Option<Span>,
}

/// A named value, such as a label or an nv2a uniform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name as written in the source, e.g. a label's `loop`.
    pub name: String,
    /// The address or register index the name stands for (its first, when it covers several).
    pub value: u64,
    /// How many consecutive addresses or registers from `value` the name covers.
    pub size: u64,
    /// What the name is, in the dialect's words (nv2a: `vector` or `matrix4`).
    pub kind: &'static str,
    /// The declaration.
    pub span: Option<Span>,
}

/// Machine code: little-endian words of `word_bytes` bytes, a listing and symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// Bytes in a word: 2 or 4.
    pub word_bytes: usize,
    /// The machine code: whole words, little-endian.
    pub bytes: Vec<u8>,
    /// The file the object was assembled from: the file a listing lists.
    pub source: Option<SourceId>,
    /// Whether [`Object::push`] records listing entries; assembling for an output format
    /// that prints no listing turns it off, so that big programs do not pay for one.
    pub listed: bool,
    /// One entry per statement; empty when [`Object::listed`] is off.
    pub listing: Vec<ListingEntry>,
    /// Why the words of a listing entry (by index) are there when no source wrote them
    /// (e.g. "end appended by the assembler"); few, so kept apart from the entries.
    pub notes: Vec<(usize, &'static str)>,
    /// The labels and other names the program defines.
    pub symbols: Vec<Symbol>,
    /// The source after the dialect's macro preprocessor, when assembling stopped there
    /// ([`crate::TargetOptions::preprocess_only`]).
    pub preprocessed: Option<String>,
}

impl Object {
    /// An empty object of 2- or 4-byte words.
    pub fn new(word_bytes: usize) -> Object {
        assert!(matches!(word_bytes, 2 | 4), "words are 2 or 4 bytes");
        Object {
            word_bytes,
            bytes: Vec::new(),
            source: None,
            listed: true,
            listing: Vec::new(),
            notes: Vec::new(),
            symbols: Vec::new(),
            preprocessed: None,
        }
    }

    /// An empty object assembled from `file`, with listing entries only when `listed` is set.
    pub fn assembled_from(word_bytes: usize, file: SourceId, listed: bool) -> Object {
        Object {
            source: Some(file),
            listed,
            ..Object::new(word_bytes)
        }
    }

    /// Makes room for `statements` listing entries of `words_each` words, so that a big
    /// program grows its buffers once.
    pub fn reserve(&mut self, statements: usize, words_each: usize) {
        self.bytes.reserve(statements * words_each * self.word_bytes);
        if self.listed {
            self.listing.reserve(statements);
        }
    }

    /// The note of listing entry `index`, if it has one.
    pub fn note(&self, index: usize) -> Option<&'static str> {
        self.notes.iter().find(|(i, _)| *i == index).map(|(_, note)| *note)
    }

    /// Builds an object of 32-bit words, one listing entry per word.
    pub fn from_words(words: &[u32]) -> Object {
        let mut object = Object::new(4);
        for (address, &word) in words.iter().enumerate() {
            object.push(address as u32, &[word], None, None);
        }
        object
    }

    /// Appends one statement's words and, when the object is listed, its listing entry.
    pub fn push(&mut self, address: u32, words: &[u32], span: Option<Span>, note: Option<&'static str>) {
        let offset = self.bytes.len() as u32;
        self.push_words(words);
        if !self.listed {
            return;
        }
        if let Some(note) = note {
            self.notes.push((self.listing.len(), note));
        }
        self.listing.push(ListingEntry {
            address,
            offset,
            len: self.bytes.len() as u32 - offset,
            span,
        });
    }

    /// Appends room for `count` words, zeroed, and gives their bytes to be filled in (words
    /// little-endian, as [`Object::push`] writes them); no listing entry is added. Big
    /// programs fill theirs from several threads, a stretch each.
    pub fn push_room(&mut self, count: usize) -> &mut [u8] {
        let start = self.bytes.len();
        self.bytes.resize(start + count * self.word_bytes, 0);
        &mut self.bytes[start..]
    }

    /// Appends `words` little-endian, in one step over the bytes (a big program's millions of
    /// words go in at memory speed).
    fn push_words(&mut self, words: &[u32]) {
        let start = self.bytes.len();
        self.bytes.resize(start + words.len() * self.word_bytes, 0);
        let bytes = &mut self.bytes[start..];
        match self.word_bytes {
            2 => {
                for (out, word) in bytes.chunks_exact_mut(2).zip(words) {
                    out.copy_from_slice(&(*word as u16).to_le_bytes());
                }
            }
            _ => {
                for (out, word) in bytes.chunks_exact_mut(4).zip(words) {
                    out.copy_from_slice(&word.to_le_bytes());
                }
            }
        }
    }

    /// The words of `bytes[range]`, decoded little-endian.
    pub fn words_in(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = u32> + '_ {
        le_words(&self.bytes[range], self.word_bytes)
    }

    /// Every word of the object.
    pub fn words(&self) -> impl Iterator<Item = u32> + '_ {
        self.words_in(0..self.bytes.len())
    }

    /// How many whole words [`Object::bytes`] holds.
    pub fn word_count(&self) -> usize {
        self.bytes.len() / self.word_bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_little_endian() {
        let object = Object::from_words(&[0x0000_0440, 0xdead_beef]);
        assert_eq!(object.bytes, [0x40, 0x04, 0, 0, 0xef, 0xbe, 0xad, 0xde]);
        assert_eq!(object.words().collect::<Vec<_>>(), [0x440, 0xdead_beef]);
        assert_eq!(object.listing[1].offset, 4);
        assert_eq!(object.note(1), None);
        let mut noted = Object::new(4);
        noted.push(0, &[1], None, None);
        noted.push(1, &[0], None, Some("appended"));
        assert_eq!((noted.note(0), noted.note(1)), (None, Some("appended")));
        assert_eq!(std::mem::size_of::<ListingEntry>(), 24);
        let file = crate::SourceMap::new().add("a.vu", "");
        let mut unlisted = Object::assembled_from(4, file, false);
        unlisted.push(0, &[1, 2], None, Some("appended"));
        assert_eq!(
            (unlisted.word_count(), unlisted.listing.len(), unlisted.note(0)),
            (2, 0, None)
        );
        let mut half = Object::new(2);
        half.push(0, &[0x1234, 0xabcd], None, None);
        assert_eq!(half.bytes, [0x34, 0x12, 0xcd, 0xab]);
        assert_eq!(half.word_count(), 2);
    }
}
