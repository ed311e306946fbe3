//! A picture as the page gets it, and what the page asks of one.

/// A picture for the page: RGBA rows from the top, and where it was made (0 CPU, 1 GPU
/// interpreter, 2 GPU native).
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The time, in seconds, the picture shows.
    pub time: f32,
    /// Where it was made: 0 the CPU, 1 the GPU interpreter, 2 native GPU code.
    pub place: u8,
    /// RGBA bytes, rows from the top.
    pub rgba: Vec<u8>,
}

impl Picture {
    /// The binary message of the protocol: the 24-byte header, then the pixels.
    pub fn message(&self, seq: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + self.rgba.len());
        out.extend_from_slice(b"PAF1");
        out.extend_from_slice(&seq.to_le_bytes());
        out.extend_from_slice(&self.width.to_le_bytes());
        out.extend_from_slice(&self.height.to_le_bytes());
        out.extend_from_slice(&self.time.to_le_bytes());
        out.extend_from_slice(&[self.place, 0, 0, 0]);
        out.extend_from_slice(&self.rgba);
        out
    }
}

/// What the page asks of a picture.
#[derive(Clone, Debug)]
pub struct PictureRequest {
    /// The time, in seconds, to render at.
    pub time: f32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Target options from the page, as `(name, value)`.
    pub options: Vec<(String, String)>,
}
