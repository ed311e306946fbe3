//! A picture as the page gets it, and what the page asks of one.

/// A picture for the page: RGBA rows from the top, and where it was made (0 CPU, 1 GPU
/// interpreter, 2 GPU native).
pub struct Picture {
    pub width: u32,
    pub height: u32,
    pub time: f32,
    pub place: u8,
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
    pub time: f32,
    pub width: u32,
    pub height: u32,
    pub options: Vec<(String, String)>,
}
