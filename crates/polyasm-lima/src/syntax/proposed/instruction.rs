//! One instruction of the proposed syntax: its operations in order, their operand counts, the
//! checks across units, and each operation into its field.

use super::*;

impl<'s> Encoder<'s> {
    /// Reads the operations of an instruction, their operands in `operands`.
    pub(super) fn instruction(&mut self, ops: &[Op], operands: &[Operand]) -> Instr {
        // Buffers kept between instructions, so that an instruction allocates nothing.
        let mut kinds = std::mem::take(&mut self.kinds);
        kinds.clear();
        kinds.extend(ops.iter().map(|op| self.kind(op)));
        self.check_order(ops, &kinds);
        // Operand counts, then the destination-last check on the rest.
        let mut usable = std::mem::take(&mut self.usable);
        usable.clear();
        usable.resize(ops.len(), false);
        let mut last_dest = Vec::new();
        for (i, (op, kind)) in ops.iter().zip(&kinds).enumerate() {
            let Some(kind) = *kind else { continue };
            let (min, max) = kind.operand_range();
            let found = op.operands.len();
            if found < min || found > max {
                // The operands past the most it takes, or the whole operation.
                let span = front::span_from(op.operands.of(operands), max).unwrap_or(op.span);
                let form = [&[self.str(opcode_span(op))], kind.operands()].concat().join(" ");
                self.push(error::operand_count(self.span(span), self.str(op.name), &form, found));
                continue;
            }
            if self.destination_last(op.operands.of(operands), kind) {
                last_dest.push(i);
                continue;
            }
            usable[i] = true;
        }
        if !last_dest.is_empty() {
            // The whole line when it is short; on a long one, each operation alone, so that the
            // help lines stay linear in the input.
            let line = self.corrected_line(ops, operands, &kinds, &last_dest);
            let whole = ops[0].span.to(ops[ops.len() - 1].span);
            for &i in &last_dest {
                let first = &ops[i].operands.of(operands)[0];
                let (corrected, replaced) = if line.len() <= MAX_HELP_LINE {
                    (line.clone(), whole)
                } else {
                    (
                        self.corrected_line(&ops[i..=i], operands, &kinds[i..=i], &[0]),
                        ops[i].span,
                    )
                };
                let d = error::destination_last(self.span(first.span), self.str(first.span), &corrected)
                    .with_fix(self.span(replaced), &corrected);
                self.push(d);
            }
        }
        let mut instr = Instr::default();
        let mut reads = Reads::default();
        let mut field_spans: [Option<(TextRange, Operation)>; 14] = [None; 14];
        for (i, (op, kind)) in ops.iter().zip(&kinds).enumerate() {
            let Some(kind) = *kind else { continue };
            if let Some(slot) = kind.slot() {
                if let Some((first, _)) = field_spans[slot] {
                    let d = error::unit_twice(self.span(op.span), self.span(first), kind.unit_name());
                    self.push(d);
                    continue;
                }
                field_spans[slot] = Some((op.span, kind));
            }
            if usable[i] {
                let _ = self.operation(op, op.operands.of(operands), kind, &mut instr, &mut reads);
            }
        }
        self.check_schedule(&instr, &reads, &field_spans);
        self.kinds = kinds;
        self.usable = usable;
        instr
    }

    /// PP017: operations must follow the control word's order.
    pub(super) fn check_order(&mut self, ops: &[Op], kinds: &[Option<Operation>]) {
        let mut previous: Option<(usize, usize)> = None;
        for (i, kind) in kinds.iter().enumerate() {
            let Some(slot) = kind.and_then(Operation::slot) else {
                continue;
            };
            if let Some((p, prev_slot)) = previous
                && slot < prev_slot
            {
                let mut right = self.reordered_line(ops, kinds, |_, text| text.to_string());
                if right.len() > MAX_HELP_LINE {
                    right.clear();
                }
                self.push(error::field_order(
                    self.span(ops[i].span),
                    self.span(ops[p].span),
                    self.str(opcode_span(&ops[i])),
                    self.str(opcode_span(&ops[p])),
                    &right,
                ));
                return;
            }
            if previous.is_none_or(|(_, s)| slot >= s) {
                previous = Some((i, slot));
            }
        }
    }

    /// The line with its operations in control-word order, each written by `write`.
    pub(super) fn reordered_line(
        &self,
        ops: &[Op],
        kinds: &[Option<Operation>],
        write: impl Fn(usize, &str) -> String,
    ) -> String {
        let mut order: Vec<usize> = (0..ops.len()).collect();
        order.sort_by_key(|&i| kinds[i].and_then(Operation::slot).unwrap_or(0));
        order
            .iter()
            .map(|&i| write(i, self.str(ops[i].span)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether a read-only pipeline register or a number stands where the destination goes
    /// (or, for `store.t`, a register where the index goes and a number last).
    pub(super) fn destination_last(&self, operands: &[Operand], kind: Operation) -> bool {
        let Some(first) = operands.first() else { return false };
        let Expr::Term { term, .. } = &first.expr else {
            return false;
        };
        if kind.form == Form::StoreT {
            let last_is_number = operands
                .last()
                .is_some_and(|o| matches!(&o.expr, Expr::Term { term, .. } if term.value == Value::Number));
            return matches!(term.value, Value::Reg | Value::Pipe) && last_is_number;
        }
        if !kind.has_dest() || operands.len() < 2 {
            return false;
        }
        match term.value {
            Value::Number => true,
            Value::Pipe => names::PIPELINE_NAMES
                .iter()
                .find(|r| r.name == self.str(term.span))
                .is_some_and(|r| r.reg.vec_reg().is_some()),
            _ => false,
        }
    }

    /// The whole line corrected: operations in order, older names replaced, and the operands
    /// of the operations in `last_dest` rotated so that the destination comes first.
    pub(super) fn corrected_line(
        &self,
        ops: &[Op],
        operands: &[Operand],
        kinds: &[Option<Operation>],
        last_dest: &[usize],
    ) -> String {
        self.reordered_line(ops, kinds, |i, _| {
            let op = &ops[i];
            let mut head = self.str(opcode_span(op)).to_string();
            for &(old, new) in names::old_opcodes() {
                if let Some(rest) = head.strip_prefix(old) {
                    head = format!("{new}{rest}");
                }
            }
            let written = op.operands.of(operands).iter();
            let renamed = written.map(|o| renamed_operand(self.str(o.span)));
            let mut words: Vec<String> = std::iter::once(head).chain(renamed).collect();
            if last_dest.contains(&i) {
                // The destination, written last, goes first.
                words[1..].rotate_right(1);
            }
            words.join(" ")
        })
    }

    /// The checks across the units of one instruction.
    pub(super) fn check_schedule(
        &mut self,
        instr: &Instr,
        reads: &Reads,
        spans: &[Option<(TextRange, Operation)>; 14],
    ) {
        let at = |field: Field| spans[2 + field.info().index as usize];
        if let (Some((combine, _)), Some((branch, _))) = (at(Field::Combine), at(Field::Branch)) {
            self.push(error::combine_with_branch(self.span(combine), self.span(branch)));
        }
        if at(Field::FloatMul).is_none() {
            for field in [Field::Vec4Acc, Field::FloatAcc] {
                if let Some((span, kind)) = at(field)
                    && kind.model() == Model::Acc(AccOp::Sel)
                {
                    self.push(error::sel_without_fmul(self.span(span)));
                }
            }
        }
        for (slot, field) in [(0, Field::Const0), (1, Field::Const1)] {
            if let Some(span) = reads.consts[slot]
                && at(field).is_none()
            {
                let name = ops::VEC_REG_NAMES[usize::from(ops::REG_CONST0) + slot];
                self.push(error::constant_not_set(self.span(span), name, field.info().mesa));
            }
        }
        for (read, pipeline, field) in [
            (reads.vmul, Pipeline::Vmul, Field::Vec4Mul),
            (reads.fmul, Pipeline::Fmul, Field::FloatMul),
        ] {
            if let Some(span) = read
                && at(field).is_none()
            {
                let unit = field.info().units[0];
                self.push(error::pipeline_unproduced(self.span(span), pipeline.name(), unit));
            }
        }
        if !instr.sync {
            let needs = [at(Field::Sampler), at(Field::Vec4Acc), at(Field::FloatAcc)]
                .into_iter()
                .flatten()
                .find(|(_, kind)| matches!(kind.model(), Model::Texld | Model::Acc(AccOp::Dfdx | AccOp::Dfdy)));
            if let Some((span, _)) = needs {
                let text = self.str(span).split_whitespace().next().unwrap_or_default().to_string();
                self.push(error::missing_sync(self.span(span), &text));
            }
        }
    }

    // ----- operations -----

    /// The second source `o[2]` of a binary op, read by `read`; `Some(None)` for a unary op.
    fn second_source<T>(
        &mut self,
        o: &[Operand],
        binary: bool,
        reads: &mut Reads,
        read: ReadSource<'s, T>,
    ) -> Option<Option<T>> {
        match binary {
            true => read(self, &o[2], false, reads).map(|s| Some(s.0)),
            false => Some(None),
        }
    }

    /// Reads operation `op`, its operands `o`, into `instr`; `None` where an operand does not
    /// read (each operand is read first, so that each bad one is reported).
    pub(super) fn operation(
        &mut self,
        op: &Op,
        o: &[Operand],
        kind: Operation,
        instr: &mut Instr,
        reads: &mut Reads,
    ) -> Option<()> {
        match kind.model() {
            Model::Stop => instr.stop = true,
            Model::Sync => instr.sync = true,
            Model::Nop => {}
            Model::Varying => instr.varying = self.varying(kind.perspective, &o[0], &o[1], reads),
            Model::Texld => instr.sampler = self.texld(kind.explicit_lod, o, reads),
            Model::Load(source) => {
                if matches!(source, LoadSource::Source1 | LoadSource::Source2) {
                    let span = opcode_span(op);
                    let what = format!("load source {}", source.code());
                    self.push(error::unused_encoding(
                        self.span(span),
                        self.str(span),
                        &what,
                        "`load.u` reads uniforms and `load.t` temporaries".to_string(),
                    ));
                }
                let (alignment, index, offset) = self.memory_index(&o[0], "a uniform or temporary index", reads)?;
                instr.load = Some(Load {
                    source,
                    alignment,
                    index,
                    offset,
                });
            }
            Model::Mul(op) if kind.is_vector() => {
                let dest = self.vec_alu_dest(&o[0], Pipeline::Vmul);
                let arg0 = self.vec_src(&o[1], false, reads);
                let arg1 = self.second_source(o, op.is_binary(), reads, Self::vec_src);
                instr.vec4_mul = Some(Mul {
                    op,
                    shift: kind.shift,
                    outmod: kind.outmod,
                    dest: dest?,
                    arg0: arg0?.0,
                    arg1: arg1?,
                });
            }
            Model::Mul(op) => {
                let dest = self.scalar_alu_dest(&o[0], Pipeline::Fmul);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = self.second_source(o, op.is_binary(), reads, Self::scalar_src);
                instr.float_mul = Some(Mul {
                    op,
                    shift: kind.shift,
                    outmod: kind.outmod,
                    dest: dest?,
                    arg0: arg0?.0,
                    arg1: arg1?,
                });
            }
            Model::Acc(op) if kind.is_vector() => {
                let dest = self.vec_alu_dest(&o[0], Pipeline::Discard);
                let arg0 = self.vec_src(&o[1], true, reads);
                let arg1 = self.second_source(o, op.is_binary(), reads, Self::vec_src);
                let (arg0, mul_in) = arg0?;
                instr.vec4_acc = Some(Acc {
                    op,
                    outmod: kind.outmod,
                    dest: dest?,
                    mul_in,
                    arg0,
                    arg1: arg1?,
                });
            }
            Model::Acc(op) => {
                let dest = self.scalar_alu_dest(&o[0], Pipeline::Discard);
                let arg0 = self.scalar_src(&o[1], true, reads);
                let arg1 = self.second_source(o, op.is_binary(), reads, Self::scalar_src);
                let (arg0, mul_in) = arg0?;
                instr.float_acc = Some(Acc {
                    op,
                    outmod: kind.outmod,
                    dest: dest?,
                    mul_in,
                    arg0,
                    arg1: arg1?,
                });
            }
            Model::Combine(combine) => {
                let dest = self.combine_dest(&o[0], combine, kind.outmod, kind.vec_dest, op);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = self.second_source(o, combine.is_binary(), reads, Self::scalar_src);
                instr.combine = Some(Combine::Scalar {
                    op: combine,
                    dest: dest?,
                    arg0: arg0?.0,
                    arg1: arg1?,
                });
            }
            Model::CombineMul => {
                let dest = self.plain_vec_dest(&o[0], true);
                let arg0 = self.scalar_src(&o[1], false, reads);
                let arg1 = self.bare_vec_source(&o[2], "the vector operand of `mul.s2`", reads);
                let (arg1, swizzle) = arg1?;
                instr.combine = Some(Combine::MulVec {
                    dest: dest?,
                    arg0: arg0?.0,
                    arg1,
                    swizzle,
                });
            }
            Model::AtanPt2 => {
                let dest = self.scalar_dest(&o[0]);
                let arg = self.bare_vec_source(&o[1], "the operand of `atan_pt2.s2`", reads);
                let (arg, swizzle) = arg?;
                instr.combine = Some(Combine::AtanPt2 {
                    dest: dest?,
                    outmod: kind.outmod,
                    arg,
                    swizzle,
                });
            }
            Model::Store => instr.store = self.store(&o[0], &o[1], reads),
            Model::FbRead(read) => {
                let dest = self.plain_vec_dest(&o[0], false)?;
                instr.store = Some(Store::FbRead { read, dest: dest.reg });
            }
            Model::Branch => {
                // The two scalars compared, then the target, last.
                let cond = kind.cond;
                let (arg0, arg1) = match cond {
                    BranchCond::Always => (Some(0), Some(0)),
                    _ => (
                        self.bare_scalar(&o[0], "a branch operand", reads),
                        self.bare_scalar(&o[1], "a branch operand", reads),
                    ),
                };
                self.branch_target(&o[o.len() - 1]);
                instr.branch = Some(Branch::Jump {
                    cond,
                    arg0: arg0?,
                    arg1: arg1?,
                    target: 0,
                });
            }
            Model::Discard => instr.branch = Some(Branch::Discard),
            Model::Const => {
                // Every constant is read, so that each bad one is reported.
                let [x, y, z, w] = [0, 1, 2, 3].map(|i| self.half(&o[i]));
                let field = match kind.form {
                    Form::Const0 => &mut instr.const0,
                    _ => &mut instr.const1,
                };
                *field = Some([x?, y?, z?, w?]);
            }
        }
        Some(())
    }
}

/// The opcode word of `op` with its unit (`add.v1`).
pub(super) fn opcode_span(op: &Op) -> TextRange {
    op.unit.map_or(op.name, |unit| op.name.to(unit))
}

/// A reader of a source operand: [`Encoder::vec_src`] or [`Encoder::scalar_src`].
type ReadSource<'s, T> = fn(&mut Encoder<'s>, &Operand, bool, &mut Reads) -> Option<(T, bool)>;

/// An operand's text with older pipeline register names replaced.
pub(super) fn renamed_operand(text: &str) -> String {
    let mut out = text.to_string();
    for row in names::PIPELINE_NAMES {
        if let Some(new) = row.replaced_by {
            out = out.replace(row.name, new);
        }
    }
    out
}
