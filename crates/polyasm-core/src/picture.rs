//! Pictures that targets render: the size limits, reading a `WxH` size, and writing 8-bit RGBA
//! PNG files.

use std::io;

/// The longest side of a picture, in pixels.
pub const MAX_SIDE: u32 = 16384;
/// The most pixels in one picture (2^26: 256 MiB of RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

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
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{s}` is not a whole number of pixels"));
        }
        match s.parse::<u32>() {
            Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
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
        assert!(parse_size("99999999999x1").is_err());
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
