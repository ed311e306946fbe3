//! Pictures that targets render: the size limits, reading a `WxH` size, and writing 8-bit RGBA
//! PNG files.

use std::io;

use crate::number::{DecimalProblem, LeadingZeros, parse_decimal};

/// The longest side of a picture, in pixels.
pub const MAX_SIDE: u32 = 16384;
/// The most pixels in one picture (2^26: 256 MiB of RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// An RGBA picture, 8 bits a channel, rows from the top (as PNG stores them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, rows from the top.
    pub rgba: Vec<u8>,
}

/// Appends the first `width` pixels of one row of a decoded 8-bit PNG, `channels` bytes each
/// (grey, grey and alpha, RGB or RGBA), to `rgba` as RGBA: what a reader with
/// `png::Transformations::normalize_to_color8` gives, without a palette.
pub fn push_rgba_row(row: &[u8], channels: usize, width: usize, rgba: &mut Vec<u8>) {
    for pixel in row.chunks_exact(channels.max(1)).take(width) {
        rgba.extend_from_slice(&match *pixel {
            [g] => [g, g, g, 255],
            [g, a] => [g, g, g, a],
            [r, g, b] => [r, g, b, 255],
            [r, g, b, a, ..] => [r, g, b, a],
            [] => [0, 0, 0, 255],
        });
    }
}

impl Image {
    /// The pixel at column `x` and row `y` counted from the top.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = (y as usize * self.width as usize + x as usize) * 4;
        [0, 1, 2, 3].map(|i| self.rgba[at + i])
    }

    /// The pixel at column `x` and row `y` counted from the **bottom**, as OpenGL counts.
    pub fn pixel_from_bottom(&self, x: u32, y: u32) -> [u8; 4] {
        self.pixel(x, self.height - 1 - y)
    }

    /// Writes the picture as an 8-bit RGBA PNG ([`write_png`]).
    pub fn write_png(&self, out: impl io::Write) -> io::Result<()> {
        write_png(self.width, self.height, &self.rgba, out)
    }
}

/// A colour channel in 8 bits: clamped to [0, 1] (NaN gives 0), then `x * 255` rounded.
pub fn channel(value: f32) -> u8 {
    // A NaN stays NaN through clamp and becomes 0 in the saturating cast.
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Checks a picture size against [`MAX_SIDE`] and [`MAX_PIXELS`]; the error is
/// [`size_error`]'s message.
pub fn check_size(width: u32, height: u32) -> Result<(), String> {
    let side = 1..=MAX_SIDE;
    if side.contains(&width) && side.contains(&height) && u64::from(width) * u64::from(height) <= MAX_PIXELS {
        Ok(())
    } else {
        Err(size_error(width, height))
    }
}

/// What is wrong with a `width` x `height` picture that [`check_size`] refuses.
pub fn size_error(width: u32, height: u32) -> String {
    format!(
        "cannot render a {width}x{height} picture: each side must be 1 to {MAX_SIDE} pixels and the picture at \
         most {MAX_PIXELS} pixels"
    )
}

/// Reads `WxH` (or `WXH`): each side 1 to [`MAX_SIDE`], at most [`MAX_PIXELS`] pixels in all.
/// The error says what is wrong, for a usage error's message.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| "write the width and height with an `x` between them".to_string())?;
    let side = |s: &str| -> Result<u32, String> {
        let s = s.trim();
        match parse_decimal(s, u64::from(MAX_SIDE), LeadingZeros::Allowed) {
            Ok(n) if n >= 1 => Ok(n as u32),
            Err(DecimalProblem::NotDigits) => Err(format!("`{s}` is not a whole number of pixels")),
            _ => Err(format!("each side is 1 to {MAX_SIDE} pixels")),
        }
    };
    let (w, h) = (side(w)?, side(h)?);
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!("a picture holds at most {MAX_PIXELS} pixels"));
    }
    Ok((w, h))
}

/// Writes `rgba` (`width * height` pixels of 4 bytes, rows from the top) as an 8-bit RGBA PNG.
/// I/O errors keep their kind, so that a closed pipe (`BrokenPipe`) can end a run quietly.
pub fn write_png(width: u32, height: u32, rgba: &[u8], out: impl io::Write) -> io::Result<()> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let io_error = |e: png::EncodingError| match e {
        png::EncodingError::IoError(e) => e,
        other => io::Error::other(other),
    };
    let mut writer = encoder.write_header().map_err(io_error)?;
    writer.write_image_data(rgba).map_err(io_error)?;
    writer.finish().map_err(io_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_bounded() {
        assert!(check_size(MAX_SIDE, 4096).is_ok());
        for (width, height) in [(0, 1), (1, 0), (MAX_SIDE + 1, 1), (1, u32::MAX), (MAX_SIDE, MAX_SIDE)] {
            assert_eq!(check_size(width, height), Err(size_error(width, height)));
        }
        assert_eq!(parse_size("640x360"), Ok((640, 360)));
        assert_eq!(parse_size("1X1"), Ok((1, 1)));
        assert_eq!(parse_size(" 2 x 3 "), Ok((2, 3)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("16385x1").unwrap_err().contains("each side"));
        assert!(parse_size("16384x16384").unwrap_err().contains("at most"));
        assert!(parse_size("640").unwrap_err().contains("`x`"));
        assert!(parse_size("-4x5").unwrap_err().contains("whole number"));
        assert!(parse_size("+4x5").is_err());
        assert!(parse_size("99999999999x1").is_err());
    }

    #[test]
    fn channels_clamp_and_round_and_pixels_count_both_ways() {
        assert_eq!(
            [-1.0, 0.0, 0.5, 1.0, 2.0, f32::NAN, f32::INFINITY].map(channel),
            [0, 0, 128, 255, 255, 0, 255]
        );
        let image = Image {
            width: 1,
            height: 2,
            rgba: vec![1, 2, 3, 4, 5, 6, 7, 8],
        };
        assert_eq!(image.pixel(0, 0), [1, 2, 3, 4]);
        assert_eq!(image.pixel_from_bottom(0, 0), [5, 6, 7, 8]);
    }

    #[test]
    fn pngs_hold_the_pixels_and_write_errors_keep_their_kind() {
        let rgba = [255, 0, 0, 255, 0, 255, 0, 128];
        let mut bytes = Vec::new();
        write_png(2, 1, &rgba, &mut bytes).unwrap();
        let mut reader = png::Decoder::new(io::Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height, info.color_type), (2, 1, png::ColorType::Rgba));
        assert_eq!(&buf[..8], &rgba);

        struct ClosedPipe;
        impl io::Write for ClosedPipe {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let error = write_png(2, 1, &rgba, ClosedPipe).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    }
}
