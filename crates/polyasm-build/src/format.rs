//! The output formats a build asks for.

/// An output format: one that every target writes, or one of a target's own by name (nv2a's
/// `vshinc`, shader-asm's `wgsl` and `glsl`, Masfix's `exe`; `polyasm targets` lists them).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Raw little-endian words (the default); `.bin`.
    Bin,
    /// One word per line in hex; `.hex`.
    Hex,
    /// A C array of `uint32_t` or `uint16_t`; `.c`.
    C,
    /// A Rust `const` array of `u32` or `u16`, ready for `include!`; `.rs`.
    Rust,
    /// Address, words and source line per statement; `.lst`.
    Listing,
    /// Words, listing and symbols as one JSON object; `.json`.
    Json,
    /// Any format by its `-f` name.
    Named(String),
}

impl Format {
    /// The format called `name` (as `polyasm -f NAME` takes it, in any case).
    pub fn named(name: &str) -> Format {
        match name.to_ascii_lowercase().as_str() {
            "bin" => Format::Bin,
            "hex" => Format::Hex,
            "c" => Format::C,
            "rust" => Format::Rust,
            "listing" => Format::Listing,
            "json" => Format::Json,
            other => Format::Named(other.to_string()),
        }
    }

    /// The format's `-f` name.
    pub fn name(&self) -> &str {
        match self {
            Format::Bin => "bin",
            Format::Hex => "hex",
            Format::C => "c",
            Format::Rust => "rust",
            Format::Listing => "listing",
            Format::Json => "json",
            Format::Named(name) => name,
        }
    }
}

impl From<&str> for Format {
    fn from(name: &str) -> Format {
        Format::named(name)
    }
}
