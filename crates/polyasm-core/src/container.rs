//! What polyasm's own binary program files share: the 12-byte header of `.mxb` (Masfix) and
//! `.shb` (shader-asm) files, written and read, and a little-endian reader that says where
//! the bytes ran out (which MBS1 and the formats' own sections use too).
//!
//! The header is four magic bytes, a format version (`u16`), flags (`u16`) and a count of what
//! follows (`u32`), all little-endian (docs/formats/). A dialect names its format in a
//! [`Format`] and words each [`HeaderProblem`] in its own diagnostics.

/// Bytes of the header: magic, version, flags, count.
pub const HEADER_BYTES: usize = 12;

/// One program file format: the header fields a file of it must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// The first four bytes.
    pub magic: [u8; 4],
    /// The version this polyasm writes and reads.
    pub version: u16,
    /// The flag bits the format defines; a file with another bit set is refused.
    pub flags: u16,
    /// The largest count a file may give.
    pub max_count: usize,
}

/// What a good header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The flag bits the file sets, all of them ones the format defines.
    pub flags: u16,
    /// How many items (instructions, for `.shb`) follow the header; at most [`Format::max_count`].
    pub count: usize,
}

/// Bytes that ran out: `needed` bytes of `what` were to start at `offset`, and only `left`
/// were there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncated {
    /// The byte offset where the value was to start.
    pub offset: usize,
    /// What the bytes were to hold, as the message quotes it: `"the version"`.
    pub what: &'static str,
    /// How many bytes the value takes.
    pub needed: usize,
    /// How many bytes there were from `offset` to the end.
    pub left: usize,
}

/// Why a header is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    /// The file ends inside the header.
    Truncated(Truncated),
    /// The file does not start with the format's magic bytes.
    Magic,
    /// Another version than [`Format::version`].
    Version(u16),
    /// Flag bits the format does not define (only those bits).
    Flags(u16),
    /// A count over [`Format::max_count`].
    Count(u32),
}

/// A refused header, with the byte offset of the field that is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeaderError {
    /// Where the error points: the byte offset of the wrong field (0 magic, 4 version, 6 flags,
    /// 8 count), or where the bytes ran out.
    pub offset: usize,
    /// What is wrong with the field.
    pub problem: HeaderProblem,
}

impl Format {
    /// The header of a file with these flags and this count.
    pub fn header(&self, flags: u16, count: usize) -> [u8; HEADER_BYTES] {
        let mut out = [0; HEADER_BYTES];
        out[..4].copy_from_slice(&self.magic);
        out[4..6].copy_from_slice(&self.version.to_le_bytes());
        out[6..8].copy_from_slice(&flags.to_le_bytes());
        out[8..].copy_from_slice(&(count as u32).to_le_bytes());
        out
    }

    /// Reads and checks the header at the start of `r`, field by field in file order, so the
    /// first wrong field is the one reported. `r` is left after the header.
    pub fn read_header(&self, r: &mut Reader) -> Result<Header, HeaderError> {
        let truncated = |t: Truncated| HeaderError {
            offset: t.offset,
            problem: HeaderProblem::Truncated(t),
        };
        let fail = |offset, problem| Err(HeaderError { offset, problem });
        if r.take(4, "the magic number").map_err(truncated)? != self.magic {
            return fail(0, HeaderProblem::Magic);
        }
        let version = r.u16("the version").map_err(truncated)?;
        if version != self.version {
            return fail(4, HeaderProblem::Version(version));
        }
        let flags = r.u16("the flags").map_err(truncated)?;
        if flags & !self.flags != 0 {
            return fail(6, HeaderProblem::Flags(flags & !self.flags));
        }
        let count = r.u32("the instruction count").map_err(truncated)?;
        if count as usize > self.max_count {
            return fail(8, HeaderProblem::Count(count));
        }
        Ok(Header {
            flags,
            count: count as usize,
        })
    }
}

/// A little-endian reader over bytes that says where it stopped short.
#[derive(Clone, Debug)]
pub struct Reader<'b> {
    bytes: &'b [u8],
    /// The offset of the next byte to read.
    pub at: usize,
}

impl<'b> Reader<'b> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'b [u8]) -> Reader<'b> {
        Reader { bytes, at: 0 }
    }

    /// How many bytes are left to read.
    pub fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// The next `n` bytes, which hold `what`.
    pub fn take(&mut self, n: usize, what: &'static str) -> Result<&'b [u8], Truncated> {
        match self.bytes.get(self.at..self.at.saturating_add(n)) {
            Some(slice) => {
                self.at += n;
                Ok(slice)
            }
            None => Err(Truncated {
                offset: self.at,
                what,
                needed: n,
                left: self.left(),
            }),
        }
    }

    /// The next two bytes, which hold `what`, as a little-endian `u16`.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, Truncated> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The next four bytes, which hold `what`, as a little-endian `u32`.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, Truncated> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: Format = Format {
        magic: *b"TEST",
        version: 3,
        flags: 0b101,
        max_count: 1000,
    };

    fn read(bytes: &[u8]) -> Result<Header, HeaderError> {
        FORMAT.read_header(&mut Reader::new(bytes))
    }

    #[test]
    fn a_written_header_reads_back() {
        let bytes = FORMAT.header(0b100, 1000);
        assert_eq!(&bytes, b"TEST\x03\x00\x04\x00\xe8\x03\x00\x00");
        let mut r = Reader::new(&bytes);
        assert_eq!(
            FORMAT.read_header(&mut r),
            Ok(Header {
                flags: 0b100,
                count: 1000
            })
        );
        assert_eq!((r.at, r.left()), (HEADER_BYTES, 0));
    }

    #[test]
    fn each_wrong_field_is_reported_at_its_offset() {
        let good = FORMAT.header(1, 7);
        let with = |at: usize, bytes: &[u8]| {
            let mut b = good;
            b[at..at + bytes.len()].copy_from_slice(bytes);
            read(&b).unwrap_err()
        };
        let error = |offset, problem| HeaderError { offset, problem };
        assert_eq!(with(0, b"TESX"), error(0, HeaderProblem::Magic));
        assert_eq!(with(4, &[4, 0]), error(4, HeaderProblem::Version(4)));
        assert_eq!(with(6, &[0b111, 0x80]), error(6, HeaderProblem::Flags(0x8002)));
        assert_eq!(with(8, &[0xe9, 3, 0, 0]), error(8, HeaderProblem::Count(1001)));
        // The first wrong field is the one reported.
        assert_eq!(read(b"TESX\x09\x00"), Err(error(0, HeaderProblem::Magic)));
    }

    #[test]
    fn a_short_file_says_which_field_it_ends_in() {
        let good = FORMAT.header(0, 1);
        for len in 0..HEADER_BYTES {
            let Err(HeaderError {
                offset,
                problem: HeaderProblem::Truncated(t),
            }) = read(&good[..len])
            else {
                panic!("{len} bytes read as a header");
            };
            let (start, what) = match len {
                0..4 => (0, "the magic number"),
                4..6 => (4, "the version"),
                6..8 => (6, "the flags"),
                _ => (8, "the instruction count"),
            };
            assert_eq!(
                (offset, t.offset, t.what, t.left),
                (start, start, what, len - start),
                "{len}"
            );
        }
    }
}
