//! Input and output in the compiled code: the output and input windows of the VM's buffers
//! kept in registers, the instructions that write and read them, and the calls into the VM
//! when a buffer is full or empty.

use std::panic::{AssertUnwindSafe, catch_unwind};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I16, I32, I64};
use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlags, Value as Val};

use super::digits::DIGITS;
use super::{CALL_FAILED, Call, Ctx, Externals, Gen, IN_END, IN_NEXT, OUT_LIMIT, OUT_NEXT};
use crate::exec::{Io, RunError};

impl Gen<'_> {
    /// Calls `f(ctx, args...)`; leaves for `failed` when it fails, else gives its result.
    fn call(&mut self, call: Call) -> Val {
        let flags = MemFlags::trusted();
        let next = self.b.use_var(self.out_next);
        self.b.ins().store(flags, next, self.ctx, OUT_NEXT);
        let next = self.b.use_var(self.in_next);
        self.b.ins().store(flags, next, self.ctx, IN_NEXT);
        let call = match &self.externals {
            Externals::Here => {
                let f = match call {
                    Call::Room => room as *const () as usize,
                    Call::Inc => inc as *const () as usize,
                    Call::Ipc => ipc as *const () as usize,
                    Call::Inu => inu as *const () as usize,
                    Call::Inl => inl as *const () as usize,
                };
                let callee = self.b.ins().iconst(self.ptr, f as i64);
                self.b.ins().call_indirect(self.sig, callee, &[self.ctx])
            }
            Externals::Linked { calls, .. } => {
                let callee = calls[Call::ALL.iter().position(|&c| c == call).expect("every call is listed")];
                self.b.ins().call(callee, &[self.ctx])
            }
        };
        self.room_known = 0;
        let result = self.b.inst_results(call)[0];
        let bad = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, result, i64::from(CALL_FAILED));
        let go_on = self.b.create_block();
        self.b.ins().brif(bad, self.failed, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
        self.load_window();
        result
    }

    /// Reads the windows the callbacks left in the `Ctx`.
    fn load_window(&mut self) {
        let flags = MemFlags::trusted();
        let next = self.b.ins().load(self.ptr, flags, self.ctx, OUT_NEXT);
        self.b.def_var(self.out_next, next);
        let limit = self.b.ins().load(self.ptr, flags, self.ctx, OUT_LIMIT);
        self.b.def_var(self.out_limit, limit);
        let next = self.b.ins().load(self.ptr, flags, self.ctx, IN_NEXT);
        self.b.def_var(self.in_next, next);
        let end = self.b.ins().load(self.ptr, flags, self.ctx, IN_END);
        self.b.def_var(self.in_end, end);
    }

    /// Makes sure of room for `bytes` (at most 8) in the output buffer, checking for 8 and
    /// writing the buffer out through the VM when full, unless the straight code before
    /// already did; gives where they go.
    fn room(&mut self, bytes: u32) -> Val {
        if self.room_known >= bytes {
            self.room_known -= bytes;
            return self.b.use_var(self.out_next);
        }
        let next = self.b.use_var(self.out_next);
        let limit = self.b.use_var(self.out_limit);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, next, limit);
        let full = self.b.create_block();
        self.b.set_cold_block(full);
        let put = self.b.create_block();
        self.b.ins().brif(fits, put, &[], full, &[]);
        self.b.switch_to_block(full);
        self.call(Call::Room);
        self.b.ins().jump(put, &[]);
        self.b.switch_to_block(put);
        self.room_known = 8 - bytes;
        self.b.use_var(self.out_next)
    }

    /// Writes `value` (16 bits) in decimal, as [`Io::outu`]: five digits at once, the leading
    /// zeros shifted out, 8 bytes stored of which the digits count.
    pub(super) fn put_number(&mut self, value: Val) {
        let at = self.room(5);
        let v = self.b.ins().uextend(I64, value);
        // x / d is (x * ceil(2^32 / d)) >> 32 for every x below 2^16 and d up to 10,000.
        let quotients: Vec<Val> = [10u64, 100, 1000, 10000]
            .into_iter()
            .map(|d| {
                let q = self.b.ins().imul_imm(v, (1u64 << 32).div_ceil(d) as i64);
                self.b.ins().ushr_imm(q, 32)
            })
            .collect();
        // The leftmost digit is x / 10,000, each next one q - 10 * (the quotient above it).
        let mut word = quotients[3];
        let mut above = quotients[3];
        for (shift, q) in [(8, quotients[2]), (16, quotients[1]), (24, quotients[0]), (32, v)] {
            let tens = self.b.ins().imul_imm(above, 10);
            let digit = self.b.ins().isub(q, tens);
            let placed = self.b.ins().ishl_imm(digit, shift);
            word = self.b.ins().bor(word, placed);
            above = q;
        }
        let word = self.b.ins().iadd_imm(word, 0x30_3030_3030);
        // The count of digits from the bit length: (v + DIGITS[bits]) >> 32.
        let v_or_1 = self.b.ins().bor_imm(v, 1);
        let lead = self.b.ins().clz(v_or_1);
        let top = self.b.ins().irsub_imm(lead, 63);
        let offset = self.b.ins().ishl_imm(top, 3);
        let table = match self.externals {
            Externals::Here => self.b.ins().iconst(self.ptr, DIGITS.as_ptr() as i64),
            Externals::Linked { digits, .. } => self.b.ins().symbol_value(self.ptr, digits),
        };
        let entry = self.b.ins().iadd(table, offset);
        let add = self.b.ins().load(I64, MemFlags::trusted().with_readonly(), entry, 0);
        let sum = self.b.ins().iadd(v, add);
        let count = self.b.ins().ushr_imm(sum, 32);
        let zeros = self.b.ins().irsub_imm(count, 5);
        let bits = self.b.ins().ishl_imm(zeros, 3);
        let word = self.b.ins().ushr(word, bits);
        self.b.ins().store(MemFlags::new().with_notrap(), word, at, 0);
        let next = self.b.ins().iadd(at, count);
        self.b.def_var(self.out_next, next);
    }

    /// Writes the low byte of `value` (16 bits), as [`Io::outc`].
    pub(super) fn put_byte(&mut self, value: Val) {
        let at = self.room(1);
        let byte = self.b.ins().ireduce(I8, value);
        self.b.ins().store(MemFlags::trusted(), byte, at, 0);
        let next = self.b.ins().iadd_imm(at, 1);
        self.b.def_var(self.out_next, next);
    }

    /// The next input byte (16 bits), taken when `take`, as [`Io::inc`] and [`Io::ipc`]; the
    /// VM's call when the buffer is empty.
    pub(super) fn take_byte(&mut self, take: bool) -> Val {
        let next = self.b.use_var(self.in_next);
        let end = self.b.use_var(self.in_end);
        let waiting = self.b.ins().icmp(IntCC::UnsignedLessThan, next, end);
        let (here, empty, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(empty);
        self.b.append_block_param(join, I16);
        self.b.ins().brif(waiting, here, &[], empty, &[]);

        self.b.switch_to_block(here);
        let byte = self.b.ins().uload8(I32, MemFlags::trusted(), next, 0);
        let byte = self.b.ins().ireduce(I16, byte);
        if take {
            let after = self.b.ins().iadd_imm(next, 1);
            self.b.def_var(self.in_next, after);
        }
        self.b.ins().jump(join, &[BlockArg::Value(byte)]);

        self.b.switch_to_block(empty);
        let got = self.call(if take { Call::Inc } else { Call::Ipc });
        let got = self.b.ins().ireduce(I16, got);
        self.b.ins().jump(join, &[BlockArg::Value(got)]);

        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    /// A number read as [`Io::inu`] reads it: straight from the buffer when its digits end
    /// inside it below 65,536 (eight bytes at once where eight wait, else a byte at a time),
    /// otherwise by the VM's call.
    pub(super) fn take_number(&mut self) -> Val {
        let start = self.b.use_var(self.in_next);
        let end = self.b.use_var(self.in_end);
        let (digit, done, vm, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let ptr = self.ptr;
        let head = self.b.create_block();
        self.b.append_block_param(head, ptr);
        self.b.append_block_param(head, I32);
        self.b.append_block_param(done, ptr);
        self.b.append_block_param(done, I32);
        self.b.append_block_param(join, I32);
        self.b.set_cold_block(vm);
        let (wide, convert, scalar) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let waiting = self.b.ins().isub(end, start);
        let eight = self.b.ins().icmp_imm(IntCC::UnsignedGreaterThanOrEqual, waiting, 8);
        self.b.ins().brif(eight, wide, &[], scalar, &[]);

        // Eight bytes at once: the digits before the first byte that is none, when there are
        // at most five, turned into their value with three multiplications.
        self.b.switch_to_block(wide);
        let word = self.b.ins().load(I64, MemFlags::new().with_notrap(), start, 0);
        let x = self.b.ins().bxor_imm(word, 0x3030_3030_3030_3030);
        // A byte is a digit when x is 0 to 9: its low 7 bits plus 0x76 stay below 0x80 and
        // its high bit is clear.
        let low = self.b.ins().band_imm(x, 0x7f7f_7f7f_7f7f_7f7f);
        let plus = self.b.ins().iadd_imm(low, 0x7676_7676_7676_7676);
        let flags = self.b.ins().bor(plus, x);
        let nondigit = self.b.ins().band_imm(flags, 0x8080_8080_8080_8080_u64 as i64);
        let bits = self.b.ins().ctz(nondigit);
        let n = self.b.ins().ushr_imm(bits, 3);
        let few = self.b.ins().icmp_imm(IntCC::UnsignedLessThanOrEqual, n, 5);
        self.b.ins().brif(few, convert, &[], vm, &[]);
        self.b.switch_to_block(convert);
        let n_bits = self.b.ins().ishl_imm(n, 3);
        let one = self.b.ins().iconst(I64, 1);
        let mask = self.b.ins().ishl(one, n_bits);
        let mask = self.b.ins().iadd_imm(mask, -1);
        let digits = self.b.ins().band(x, mask);
        // The digits to the top bytes: the bytes below are leading zeros of an 8-digit number.
        let up = self.b.ins().irsub_imm(n_bits, 64);
        let mut v = self.b.ins().ishl(digits, up);
        for (keep, times, down) in [
            (0x0f0f_0f0f_0f0f_0f0f_i64, 10 * (1 << 8) + 1, 8),
            (0x00ff_00ff_00ff_00ff, 100 * (1 << 16) + 1, 16),
            (0x0000_ffff_0000_ffff, 10000 * (1 << 32) + 1, 32),
        ] {
            let kept = self.b.ins().band_imm(v, keep);
            let times = self.b.ins().imul_imm(kept, times);
            v = self.b.ins().ushr_imm(times, down);
        }
        let value = self.b.ins().ireduce(I32, v);
        let fits = self.b.ins().icmp_imm(IntCC::UnsignedLessThanOrEqual, value, 0xffff);
        let at = self.b.ins().iadd(start, n);
        self.b
            .ins()
            .brif(fits, done, &[BlockArg::Value(at), BlockArg::Value(value)], vm, &[]);

        self.b.switch_to_block(scalar);
        let zero = self.b.ins().iconst(I32, 0);
        self.b
            .ins()
            .jump(head, &[BlockArg::Value(start), BlockArg::Value(zero)]);

        // head(at, value): at the end of the buffer the VM reads on; a byte that is no digit
        // ends the number.
        self.b.switch_to_block(head);
        let (at, value) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, end);
        self.b.ins().brif(more, digit, &[], vm, &[]);

        self.b.switch_to_block(digit);
        let byte = self.b.ins().uload8(I32, MemFlags::trusted(), at, 0);
        let d = self.b.ins().iadd_imm(byte, -i64::from(b'0'));
        let is_digit = self.b.ins().icmp_imm(IntCC::UnsignedLessThanOrEqual, d, 9);
        let (add, past) = (self.b.create_block(), self.b.create_block());
        self.b
            .ins()
            .brif(is_digit, add, &[], done, &[BlockArg::Value(at), BlockArg::Value(value)]);
        self.b.switch_to_block(add);
        let tens = self.b.ins().imul_imm(value, 10);
        let value = self.b.ins().iadd(tens, d);
        let fits = self.b.ins().icmp_imm(IntCC::UnsignedLessThanOrEqual, value, 0xffff);
        self.b.ins().brif(fits, past, &[], vm, &[]);
        self.b.switch_to_block(past);
        let after = self.b.ins().iadd_imm(at, 1);
        self.b
            .ins()
            .jump(head, &[BlockArg::Value(after), BlockArg::Value(value)]);

        self.b.switch_to_block(done);
        let (at, value) = (self.b.block_params(done)[0], self.b.block_params(done)[1]);
        self.b.def_var(self.in_next, at);
        self.b.ins().jump(join, &[BlockArg::Value(value)]);

        // A number the buffer does not hold whole, or one to clamp: nothing was taken yet.
        self.b.switch_to_block(vm);
        let got = self.call(Call::Inu);
        self.b.ins().jump(join, &[BlockArg::Value(got)]);

        self.b.switch_to_block(join);
        let value = self.b.block_params(join)[0];
        self.b.ins().ireduce(I16, value)
    }

    /// Skips past the next `\n`, as [`Io::inl`]: straight in the buffer when it holds one,
    /// otherwise by the VM's call.
    pub(super) fn skip_line(&mut self) {
        let start = self.b.use_var(self.in_next);
        let end = self.b.use_var(self.in_end);
        let ptr = self.ptr;
        let (head, byte, found, vm, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(head, ptr);
        self.b.set_cold_block(vm);
        self.b.ins().jump(head, &[BlockArg::Value(start)]);

        self.b.switch_to_block(head);
        let at = self.b.block_params(head)[0];
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, end);
        self.b.ins().brif(more, byte, &[], vm, &[]);

        self.b.switch_to_block(byte);
        let b = self.b.ins().uload8(I32, MemFlags::trusted(), at, 0);
        let newline = self.b.ins().icmp_imm(IntCC::Equal, b, i64::from(b'\n'));
        let after = self.b.ins().iadd_imm(at, 1);
        self.b.ins().brif(newline, found, &[], head, &[BlockArg::Value(after)]);

        self.b.switch_to_block(found);
        self.b.def_var(self.in_next, after);
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(vm);
        self.call(Call::Inl);
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(join);
    }
}

/// Runs `f` on the VM's buffers behind `ctx`; a failure, or a panic, is kept there for
/// [`Compiled::run`], and the compiled code leaves.
fn guarded(ctx: *mut u8, f: impl FnOnce(&mut Io) -> Result<u32, RunError>) -> u32 {
    // SAFETY: the compiled code passes on the pointer `Compiled::run` gave it, to a live `Ctx`
    // that nothing else touches during the call.
    let ctx = unsafe { &mut *ctx.cast::<Ctx<'_, '_>>() };
    ctx.io.out_written(ctx.out_next);
    ctx.io.in_taken(ctx.in_next);
    let result = catch_unwind(AssertUnwindSafe(|| f(ctx.io)));
    (ctx.out_next, ctx.out_limit) = ctx.io.out_window();
    (ctx.in_next, ctx.in_end) = ctx.io.in_window();
    match result {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            ctx.error = Some(e);
            CALL_FAILED
        }
        Err(payload) => {
            ctx.panic = Some(payload);
            CALL_FAILED
        }
    }
}

extern "C" fn room(ctx: *mut u8) -> u32 {
    guarded(ctx, |io| io.room().map(|()| 0))
}

extern "C" fn inc(ctx: *mut u8) -> u32 {
    guarded(ctx, |io| io.inc().map(u32::from))
}

extern "C" fn ipc(ctx: *mut u8) -> u32 {
    guarded(ctx, |io| io.ipc().map(u32::from))
}

extern "C" fn inu(ctx: *mut u8) -> u32 {
    guarded(ctx, |io| io.inu().map(u32::from))
}

extern "C" fn inl(ctx: *mut u8) -> u32 {
    guarded(ctx, |io| io.inl().map(|()| 0))
}
