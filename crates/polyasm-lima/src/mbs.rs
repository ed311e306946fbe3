//! The MBS1 container of a fragment program, as Mesa's standalone tools and the ARM offline
//! compiler use it. Every chunk is a 4-byte tag, a little-endian 32-bit size and that many
//! bytes. [`write()`] produces
//!
//! ```text
//! MBS1 { CFRA { core version, FSTA {stack size, stack offset}, FDIS {has discard},
//!               FBUU {8 flag bytes}, SUNI {0 uniforms, size 0}, SVAR {0 varyings},
//!               DBIN {the words} } }
//! ```
//!
//! and [`read`] finds the words in such a file: it checks `MBS1` and `CFRA`, then walks
//! `CFRA`'s chunks to `DBIN`, each read through core's [`Reader`], which stops at the end of
//! the data that holds it. docs/formats/lima-mbs.md describes the layout.

use polyasm_core::container::Reader;

use crate::instr::{Branch, Instr, Store};
use crate::ops::FbRead;

/// Tag of the whole file.
pub const TAG_FILE: [u8; 4] = *b"MBS1";
/// Tag of a fragment shader.
pub const TAG_FRAGMENT: [u8; 4] = *b"CFRA";
/// Tag of a vertex shader (not read here).
pub const TAG_VERTEX: [u8; 4] = *b"CVER";
/// Tag of the stack size and offset.
pub const TAG_STACK: [u8; 4] = *b"FSTA";
/// Tag of the has-discard flag.
pub const TAG_DISCARD: [u8; 4] = *b"FDIS";
/// Tag of the framebuffer-use flags.
pub const TAG_FRAMEBUFFER_USE: [u8; 4] = *b"FBUU";
/// Tag of the uniform table.
pub const TAG_UNIFORMS: [u8; 4] = *b"SUNI";
/// Tag of the varying table.
pub const TAG_VARYINGS: [u8; 4] = *b"SVAR";
/// Tag of the program words.
pub const TAG_CODE: [u8; 4] = *b"DBIN";

/// The core a program is for (the version word of `CFRA`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Core {
    /// Mali-200: version 5.
    Mali200,
    /// Mali-400 (and 300, 450, 470): version 7.
    Mali400,
}

impl Core {
    /// The version word.
    pub fn version(self) -> u32 {
        match self {
            Core::Mali200 => 5,
            Core::Mali400 => 7,
        }
    }
}

/// What the container says about a fragment program besides its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FragmentInfo {
    /// The core (`CFRA` version).
    pub core: Core,
    /// `FSTA`: stack (temporary memory) size.
    pub stack_size: u32,
    /// `FSTA`: stack offset.
    pub stack_offset: u32,
    /// `FDIS`: the program may discard.
    pub has_discard: bool,
    /// `FBUU`: reads colour, writes colour, reads depth, writes depth, reads stencil, writes
    /// stencil, two zero bytes.
    pub framebuffer_use: [u8; 8],
}

impl FragmentInfo {
    /// The information of `program` for a Mali-400: `has_discard` when it has a discard,
    /// colour written, colour and depth read when it has `fb_color`/`fb_depth`, no stack.
    pub fn for_program(program: &[Instr]) -> FragmentInfo {
        let has = |f: &dyn Fn(&Instr) -> bool| program.iter().any(f);
        let reads = |read| has(&|i: &Instr| matches!(i.store, Some(Store::FbRead { read: r, .. }) if r == read));
        let (color, depth) = (reads(FbRead::Color).into(), reads(FbRead::Depth).into());
        FragmentInfo {
            core: Core::Mali400,
            stack_size: 0,
            stack_offset: 0,
            has_discard: has(&|i: &Instr| i.branch == Some(Branch::Discard)),
            framebuffer_use: [color, 1, depth, 0, 0, 0, 0, 0],
        }
    }
}

/// A chunk: its tag, its size and `body`.
fn chunk(tag: [u8; 4], body: &[u8]) -> Vec<u8> {
    [&tag, &(body.len() as u32).to_le_bytes(), body].concat()
}

fn words_le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The MBS1 file of a fragment program.
pub fn write(words: &[u32], info: &FragmentInfo) -> Vec<u8> {
    let fragment = [
        info.core.version().to_le_bytes().to_vec(),
        chunk(TAG_STACK, &words_le(&[info.stack_size, info.stack_offset])),
        chunk(TAG_DISCARD, &words_le(&[info.has_discard.into()])),
        chunk(TAG_FRAMEBUFFER_USE, &info.framebuffer_use),
        chunk(TAG_UNIFORMS, &words_le(&[0, 0])),
        chunk(TAG_VARYINGS, &words_le(&[0])),
        chunk(TAG_CODE, &words_le(words)),
    ]
    .concat();
    chunk(TAG_FILE, &chunk(TAG_FRAGMENT, &fragment))
}

/// A fragment program read from an MBS1 file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MbsProgram {
    /// The `CFRA` version word (5 Mali-200, 7 Mali-400).
    pub version: u32,
    /// The program words from `DBIN`.
    pub words: Vec<u32>,
}

/// Why a file is not a fragment MBS1 file; `offset` is the byte where reading stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MbsError {
    /// Byte offset in the file.
    pub offset: usize,
    /// What is wrong.
    pub kind: MbsErrorKind,
}

/// What is wrong with an MBS1 file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbsErrorKind {
    /// The file does not start with `MBS1`.
    NotMbs,
    /// A chunk header or body runs past the end of the file or of its parent chunk.
    Truncated,
    /// The first chunk is not `CFRA` (`CVER` is a vertex shader).
    NotFragment {
        /// The tag found.
        tag: [u8; 4],
    },
    /// `CFRA` has no `DBIN` chunk.
    NoCode,
    /// `DBIN`'s size is not a whole number of words.
    PartialWord {
        /// Its size in bytes.
        size: u32,
    },
}

impl MbsError {
    fn at(offset: usize, kind: MbsErrorKind) -> MbsError {
        MbsError { offset, kind }
    }

    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            MbsErrorKind::NotMbs => crate::error::Code::NotMbs.as_str(),
            MbsErrorKind::Truncated => crate::error::Code::MbsTruncated.as_str(),
            MbsErrorKind::NotFragment { .. } => crate::error::Code::MbsNotFragment.as_str(),
            MbsErrorKind::NoCode => crate::error::Code::MbsNoCode.as_str(),
            MbsErrorKind::PartialWord { .. } => crate::error::Code::MbsPartialWord.as_str(),
        }
    }
}

fn tag_text(tag: &[u8; 4]) -> String {
    tag.iter()
        .map(|&b| if b.is_ascii_graphic() { char::from(b) } else { '?' })
        .collect()
}

impl std::fmt::Display for MbsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: ", self.offset)?;
        match self.kind {
            MbsErrorKind::NotMbs => write!(f, "the file does not start with `MBS1`"),
            MbsErrorKind::Truncated => write!(f, "a chunk runs past the end of the data that holds it"),
            MbsErrorKind::NotFragment { tag } if tag == TAG_VERTEX => {
                write!(
                    f,
                    "the file holds a vertex shader (`CVER`), not a fragment shader (`CFRA`)"
                )
            }
            MbsErrorKind::NotFragment { tag } => {
                write!(f, "expected a fragment shader chunk `CFRA`, found `{}`", tag_text(&tag))
            }
            MbsErrorKind::NoCode => write!(f, "the fragment shader has no `DBIN` chunk with its words"),
            MbsErrorKind::PartialWord { size } => {
                write!(
                    f,
                    "the `DBIN` chunk holds {size} bytes, not a whole number of 32-bit words"
                )
            }
        }
    }
}

/// One chunk: the file offset of its header, its tag, and its body with the body's offset.
struct Chunk<'b> {
    at: usize,
    tag: [u8; 4],
    body: &'b [u8],
    body_at: usize,
}

/// The chunk whose header is next in `r`, a reader of the data that holds it (the file, or a
/// parent chunk's body) whose first byte is at file offset `base`. A header or body that runs
/// past the end of that data is [`MbsErrorKind::Truncated`] at the header.
fn next_chunk<'b>(r: &mut Reader<'b>, base: usize) -> Result<Chunk<'b>, MbsError> {
    let at = base + r.at;
    let truncated = |_| MbsError::at(at, MbsErrorKind::Truncated);
    let tag = r.take(4, "a chunk's tag").map_err(truncated)?;
    let size = r.u32("a chunk's size").map_err(truncated)?;
    let body = r.take(size as usize, "a chunk's body").map_err(truncated)?;
    Ok(Chunk {
        at,
        tag: [tag[0], tag[1], tag[2], tag[3]],
        body,
        body_at: at + 8,
    })
}

/// Reads the program words of a fragment MBS1 file.
pub fn read(bytes: &[u8]) -> Result<MbsProgram, MbsError> {
    if !bytes.starts_with(&TAG_FILE) {
        return Err(MbsError::at(0, MbsErrorKind::NotMbs));
    }
    let file = next_chunk(&mut Reader::new(bytes), 0)?;
    let fragment = next_chunk(&mut Reader::new(file.body), file.body_at)?;
    if fragment.tag != TAG_FRAGMENT {
        let tag = fragment.tag;
        return Err(MbsError::at(fragment.at, MbsErrorKind::NotFragment { tag }));
    }
    let mut r = Reader::new(fragment.body);
    let version = r
        .u32("the core version")
        .map_err(|_| MbsError::at(fragment.body_at, MbsErrorKind::Truncated))?;
    while r.left() > 0 {
        let chunk = next_chunk(&mut r, fragment.body_at)?;
        if chunk.tag == TAG_CODE {
            if !chunk.body.len().is_multiple_of(4) {
                let size = chunk.body.len() as u32;
                return Err(MbsError::at(chunk.at, MbsErrorKind::PartialWord { size }));
            }
            let words = chunk
                .body
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            return Ok(MbsProgram { version, words });
        }
    }
    Err(MbsError::at(fragment.body_at, MbsErrorKind::NoCode))
}
