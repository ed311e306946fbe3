//! The VM's side of a program's input and output: a buffer each way, shared by the VM and the
//! native code (which writes into the output buffer and reads from the input buffer itself,
//! and calls here when one is full or empty).

use std::io::{ErrorKind, Read, Write};

use crate::outcome::{RunError, Stats};

/// The size of the output buffer, written out when it is full.
const OUTPUT_CHUNK: usize = 1 << 16;

/// Input is read from the reader this many bytes at a time.
const INPUT_CHUNK: usize = 1 << 16;

/// The VM's side of input and output: a buffer each way.
pub(crate) struct Io<'a> {
    input: &'a mut dyn Read,
    output: &'a mut dyn Write,
    /// Output waiting: `out[..out_len]`. Empty until the first output, then `OUTPUT_CHUNK`
    /// bytes, so that a number is written with fixed-size copies.
    out: Vec<u8>,
    out_len: usize,
    /// Empty until the first read: a compile-time call that reads nothing allocates nothing.
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    eof: bool,
}

impl<'a> Io<'a> {
    pub(crate) fn new(input: &'a mut dyn Read, output: &'a mut dyn Write) -> Io<'a> {
        Io {
            input,
            output,
            out: Vec::new(),
            out_len: 0,
            buf: Vec::new(),
            pos: 0,
            len: 0,
            eof: false,
        }
    }

    /// Writes what waits in the output buffer.
    pub(crate) fn flush(&mut self) -> Result<(), RunError> {
        self.write_out()?;
        self.output.flush().map_err(RunError::Write)
    }

    fn write_out(&mut self) -> Result<(), RunError> {
        if self.out_len > 0 {
            self.output
                .write_all(&self.out[..self.out_len])
                .map_err(RunError::Write)?;
            self.out_len = 0;
        }
        Ok(())
    }

    pub(crate) fn has_output(&self) -> bool {
        self.out_len > 0
    }

    /// Flushes at the end of a run; the run's own error wins over a failed write.
    pub(crate) fn finish(mut self, result: Result<Stats, RunError>) -> Result<Stats, RunError> {
        let flushed = self.flush();
        let stats = result?;
        flushed?;
        Ok(stats)
    }

    /// Makes room for 8 more bytes of output (a number and a separator need 6): allocates the buffer, or writes it out when
    /// full.
    #[inline]
    pub(crate) fn room(&mut self) -> Result<(), RunError> {
        if self.out.len() - self.out_len < 8 {
            self.make_room()?;
        }
        Ok(())
    }

    #[cold]
    fn make_room(&mut self) -> Result<(), RunError> {
        if self.out.is_empty() {
            self.out = vec![0; OUTPUT_CHUNK];
        }
        self.write_out()
    }

    #[inline]
    pub(crate) fn outc(&mut self, byte: u8) -> Result<(), RunError> {
        self.room()?;
        self.out[self.out_len] = byte;
        self.out_len += 1;
        Ok(())
    }

    /// The output window native code writes into: the address of the next byte, and the last
    /// address at which 8 bytes still fit (below the next while there is no buffer, so that
    /// the first output calls [`Io::room`]).
    #[cfg(jit)]
    pub(crate) fn out_window(&mut self) -> (usize, usize) {
        if self.out.is_empty() {
            return (1, 0);
        }
        let base = self.out.as_mut_ptr() as usize;
        (base + self.out_len, base + self.out.len() - 8)
    }

    /// Takes back the window of [`Io::out_window`], written up to `next`.
    #[cfg(jit)]
    pub(crate) fn out_written(&mut self, next: usize) {
        if !self.out.is_empty() {
            self.out_len = next - self.out.as_ptr() as usize;
        }
    }

    /// The input window native code reads from: the address of the next byte and of the end
    /// of what waits (the same when nothing does, so that the next read calls the VM).
    #[cfg(jit)]
    pub(crate) fn in_window(&self) -> (usize, usize) {
        let base = self.buf.as_ptr() as usize;
        (base + self.pos, base + self.len)
    }

    /// Takes back the window of [`Io::in_window`], read up to `next`.
    #[cfg(jit)]
    pub(crate) fn in_taken(&mut self, next: usize) {
        self.pos = next - self.buf.as_ptr() as usize;
    }

    /// Writes the decimal digits of `value`, then `byte`.
    #[inline]
    pub(crate) fn outu_then(&mut self, value: u16, byte: u8) -> Result<(), RunError> {
        self.room()?;
        self.put_number(value);
        self.out[self.out_len] = byte;
        self.out_len += 1;
        Ok(())
    }

    /// Writes the decimal digits of `value`: all five are computed independently, then the
    /// leading zeros are shifted out and 8 bytes are copied, of which the digits count.
    #[inline]
    pub(crate) fn outu(&mut self, value: u16) -> Result<(), RunError> {
        self.room()?;
        self.put_number(value);
        Ok(())
    }

    /// Puts the digits of `value` in the buffer, which has room for 8 bytes.
    #[inline(always)]
    fn put_number(&mut self, value: u16) {
        let v = u32::from(value);
        let count = 1 + usize::from(v >= 10) + usize::from(v >= 100) + usize::from(v >= 1000) + usize::from(v >= 10000);
        let digits = [v / 10000, v / 1000 % 10, v / 100 % 10, v / 10 % 10, v % 10];
        let mut word = 0u64;
        for (i, d) in digits.into_iter().enumerate() {
            word |= u64::from(b'0' + d as u8) << (8 * i);
        }
        word >>= 8 * (5 - count);
        self.out[self.out_len..self.out_len + 8].copy_from_slice(&word.to_le_bytes());
        self.out_len += count;
    }

    /// Makes at least one byte wait in the input buffer unless the input has ended; writes
    /// the output first, since the reader may block.
    #[cold]
    fn refill(&mut self) -> Result<(), RunError> {
        if self.eof {
            return Ok(());
        }
        self.flush()?;
        if self.buf.is_empty() {
            self.buf = vec![0; INPUT_CHUNK];
        }
        loop {
            match self.input.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.pos = 0;
                    self.len = n.min(self.buf.len());
                    return Ok(());
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(RunError::Read(e)),
            }
        }
    }

    /// The next byte, not consumed; `None` at the end of input.
    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, RunError> {
        if self.pos == self.len {
            self.refill()?;
            if self.pos == self.len {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.pos]))
    }

    #[inline]
    pub(crate) fn ipc(&mut self) -> Result<u16, RunError> {
        Ok(self.peek()?.map_or(u16::MAX, u16::from))
    }

    #[inline]
    pub(crate) fn inc(&mut self) -> Result<u16, RunError> {
        let byte = self.peek()?;
        if byte.is_some() {
            self.pos += 1;
        }
        Ok(byte.map_or(u16::MAX, u16::from))
    }

    /// Reads consecutive digits, clamping at 65535; 0 when the next byte is no digit.
    #[inline]
    pub(crate) fn inu(&mut self) -> Result<u16, RunError> {
        let mut value: u32 = 0;
        loop {
            let waiting = &self.buf[self.pos..self.len];
            let mut taken = 0;
            for &byte in waiting {
                let digit = byte.wrapping_sub(b'0');
                if digit > 9 {
                    break;
                }
                // The clamp is a rarely taken branch rather than a step of every digit.
                value = value * 10 + u32::from(digit);
                if value > u32::from(u16::MAX) {
                    self.pos += taken + 1;
                    return self.skip_digits().map(|()| u16::MAX);
                }
                taken += 1;
            }
            self.pos += taken;
            if taken < waiting.len() {
                return Ok(value as u16);
            }
            // The digits may go on past the buffer.
            self.refill()?;
            if self.pos == self.len {
                return Ok(value as u16);
            }
        }
    }

    /// Consumes the digits from `pos` on, which a number too big to hold ends with.
    #[cold]
    fn skip_digits(&mut self) -> Result<(), RunError> {
        loop {
            let waiting = &self.buf[self.pos..self.len];
            let digits = waiting.iter().take_while(|b| b.is_ascii_digit()).count();
            self.pos += digits;
            if digits < waiting.len() {
                return Ok(());
            }
            self.refill()?;
            if self.pos == self.len {
                return Ok(());
            }
        }
    }

    #[inline]
    pub(crate) fn inl(&mut self) -> Result<(), RunError> {
        loop {
            let waiting = &self.buf[self.pos..self.len];
            if let Some(at) = waiting.iter().position(|&b| b == b'\n') {
                self.pos += at + 1;
                return Ok(());
            }
            self.pos = self.len;
            self.refill()?;
            if self.pos == self.len {
                return Ok(());
            }
        }
    }
}
