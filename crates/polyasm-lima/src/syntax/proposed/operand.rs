//! The operands of the proposed syntax: registers, pipeline registers, swizzles and masks,
//! indices, varyings, samplers, branch targets and constants.

use super::*;
use polyasm_core::number::parse_f64;

impl<'s> Encoder<'s> {
    /// Reports `diagnostic`; the operand gives no value.
    pub(super) fn reject<T>(&mut self, diagnostic: Diagnostic) -> Option<T> {
        self.push(diagnostic);
        None
    }

    /// Reports the operand at `span` as the wrong kind of operand: what goes there is
    /// `expected`.
    pub(super) fn wrong_kind<T>(&mut self, span: TextRange, expected: &str) -> Option<T> {
        self.reject(error::operand_kind(self.span(span), self.str(span), expected))
    }

    /// Reports suffix `suffix` as malformed: it `problem`, and `help` says what goes there.
    pub(super) fn bad_suffix<T>(&mut self, suffix: TextRange, problem: &str, help: &str) -> Option<T> {
        self.reject(error::bad_swizzle(self.span(suffix), self.str(suffix), problem, help))
    }

    /// The plain term of an operand with no `-`, call or offset, or an error saying `expected`.
    pub(super) fn plain_term(
        &mut self,
        operand: &Operand,
        expected: &str,
        offset_ok: bool,
    ) -> Option<(Term, Option<Term>)> {
        match &operand.expr {
            Expr::Term { term, offset } if operand.neg.is_none() && (offset_ok || offset.is_none()) => {
                Some((*term, *offset))
            }
            _ => self.wrong_kind(operand.span, expected),
        }
    }

    /// A `$N` register: 0-11 as a `source`, 0-15 as a destination; 6 and up with a warning.
    pub(super) fn register(&mut self, span: TextRange, source: bool) -> Option<u8> {
        let text = self.str(span);
        let number = text[1..].bytes().try_fold(0u32, |n, b| {
            b.is_ascii_digit().then(|| (n * 10 + u32::from(b - b'0')).min(1000))
        });
        let n = match number {
            Some(n) if n < 16 => n as u8,
            _ => {
                let help = "registers are `$0`-`$5` (`$6`-`$11` also encode)".to_string();
                return self.reject(error::register_range(self.span(span), text, help));
            }
        };
        if source && n >= ops::GENERAL_REGS {
            let name = ops::VEC_REG_NAMES[usize::from(n)];
            let help = format!("register number {n} is the pipeline register `{name}`: write that");
            return self.reject(error::register_range(self.span(span), text, help));
        }
        if n >= ops::ALLOCATED_REGS {
            self.push(error::unallocated_register(self.span(span), text));
        }
        Some(n)
    }

    /// A pipeline register name; older names draw a warning.
    pub(super) fn pipeline(&mut self, span: TextRange) -> Option<Pipeline> {
        let text = self.str(span);
        match names::PIPELINE_NAMES.iter().find(|r| r.name == text) {
            Some(row) => {
                if let Some(new) = row.replaced_by {
                    self.push(error::old_name(self.span(span), text, new));
                }
                Some(row.reg)
            }
            None => {
                let suggestion = suggest(
                    text,
                    names::PIPELINE_NAMES
                        .iter()
                        .filter(|r| r.replaced_by.is_none())
                        .map(|r| r.name),
                );
                let help = match suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "the pipeline registers are ^const0, ^const1, ^texture, ^uniform, ^v0, ^s0 and ^discard"
                        .to_string(),
                };
                self.reject(error::register_range(self.span(span), text, help))
            }
        }
    }

    /// A source operand: `[-][abs(]register[.suffix][)]`.
    pub(super) fn source(&mut self, operand: &Operand, reads: &mut Reads) -> Option<Src> {
        let (inner, abs) = match &operand.expr {
            Expr::Call { name, arg, .. } if self.str(*name) == names::ABS => {
                let arg = self.args[*arg as usize];
                if arg.neg.is_some() {
                    return self.wrong_kind(operand.span, "`-abs(...)`: the negation goes outside");
                }
                (arg, true)
            }
            _ => (*operand, false),
        };
        let term = match &inner.expr {
            Expr::Term { term, offset: None } if matches!(term.value, Value::Reg | Value::Pipe) => *term,
            _ => return self.wrong_kind(operand.span, "a register"),
        };
        let reg = match term.value {
            Value::Reg => SrcReg::Vec(self.register(term.span, true)?),
            _ => match self.pipeline(term.span)? {
                Pipeline::Vmul => SrcReg::Vmul,
                Pipeline::Fmul => SrcReg::Fmul,
                Pipeline::Discard => {
                    return self.wrong_kind(term.span, "a register to read (`^discard` is only a destination)");
                }
                p => {
                    let reg = p
                        .vec_reg()
                        .expect("invariant: the other pipeline registers have numbers");
                    read_constant(reads, reg, term.span);
                    SrcReg::Vec(reg)
                }
            },
        };
        Some(Src {
            reg,
            suffix: term.suffix,
            abs,
            neg: operand.neg.is_some(),
            span: operand.span,
        })
    }

    /// A vector source; `^v0` is allowed (and gives `mul_in`) when `vmul_ok`.
    pub(super) fn vec_src(&mut self, operand: &Operand, vmul_ok: bool, reads: &mut Reads) -> Option<(VecSource, bool)> {
        let src = self.source(operand, reads)?;
        let swizzle = self.swizzle(src.suffix)?;
        let reg = match src.reg {
            SrcReg::Vec(reg) => Some(reg),
            SrcReg::Vmul if vmul_ok => {
                reads.vmul.get_or_insert(src.span);
                None
            }
            SrcReg::Vmul | SrcReg::Fmul => return self.misplaced_pipeline(&src),
        };
        Some(lower::vec_source(reg, swizzle, src.abs, src.neg))
    }

    /// A scalar source; `^s0` is allowed (and gives `mul_in`) when `fmul_ok`.
    pub(super) fn scalar_src(
        &mut self,
        operand: &Operand,
        fmul_ok: bool,
        reads: &mut Reads,
    ) -> Option<(ScalarSource, bool)> {
        let src = self.source(operand, reads)?;
        let reg = match src.reg {
            SrcReg::Vec(reg) => Some(reg * 4 + self.component(src.suffix, src.span)?),
            SrcReg::Fmul if fmul_ok => {
                if let Some(suffix) = src.suffix {
                    return self.bad_suffix(suffix, "follows `^s0`, which is one value", "write `^s0` alone");
                }
                reads.fmul.get_or_insert(src.span);
                None
            }
            SrcReg::Fmul | SrcReg::Vmul => return self.misplaced_pipeline(&src),
        };
        Some(lower::scalar_source(reg, src.abs, src.neg))
    }

    /// Reports a multiplier's result read where it cannot be: only the accumulator after it
    /// reads it, as its first source.
    pub(super) fn misplaced_pipeline<T>(&mut self, src: &Src) -> Option<T> {
        let (name, unit) = match src.reg {
            SrcReg::Fmul => (Pipeline::Fmul.name(), Field::FloatAcc.info().units[0]),
            _ => (Pipeline::Vmul.name(), Field::Vec4Acc.info().units[0]),
        };
        self.reject(error::pipeline_source(self.span(src.span), name, unit))
    }

    /// A scalar register with no modifiers (offsets, LOD registers, branch operands, stores).
    pub(super) fn bare_scalar(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<ScalarReg> {
        let src = self.bare(operand, what, reads)?;
        match src.reg {
            SrcReg::Vec(reg) => Some(reg * 4 + self.component(src.suffix, src.span)?),
            SrcReg::Vmul | SrcReg::Fmul => self.misplaced_pipeline(&src),
        }
    }

    /// A source without modifiers.
    pub(super) fn bare(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<Src> {
        let src = self.source(operand, reads)?;
        if src.abs || src.neg {
            return self.reject(error::operand_modifier(self.span(operand.span), what));
        }
        Some(src)
    }

    /// A vec4 register and swizzle with no modifiers (`mul.s2`, `atan_pt2.s2`).
    pub(super) fn bare_vec_source(&mut self, operand: &Operand, what: &str, reads: &mut Reads) -> Option<(u8, u8)> {
        let src = self.bare(operand, what, reads)?;
        let swizzle = self.swizzle(src.suffix)?;
        match src.reg {
            SrcReg::Vec(reg) => Some((reg, swizzle)),
            SrcReg::Vmul | SrcReg::Fmul => self.misplaced_pipeline(&src),
        }
    }

    /// A swizzle: 1 to 4 letters, the last repeated (`.xy` is `.xyyy`); none is `.xyzw`.
    pub(super) fn swizzle(&mut self, suffix: Option<TextRange>) -> Option<u8> {
        let Some(suffix) = suffix else {
            return Some(ops::SWIZZLE_IDENTITY);
        };
        lower::swizzle(&self.str(suffix).as_bytes()[1..]).or_else(|| {
            self.bad_suffix(
                suffix,
                "is not a swizzle",
                "a swizzle is 1 to 4 of the letters x, y, z, w; the last one repeats (`.xy` is `.xyyy`)",
            )
        })
    }

    /// One component letter: the lane of a scalar operand.
    pub(super) fn component(&mut self, suffix: Option<TextRange>, span: TextRange) -> Option<u8> {
        let lane = suffix.and_then(|s| lower::component(self.str(s).as_bytes()));
        lane.or_else(|| {
            self.reject(error::bad_swizzle(
                self.span(suffix.unwrap_or(span)),
                self.str(span),
                "is not one component",
                "a scalar operand names one component: `$1.x`, `^const0.w`",
            ))
        })
    }

    /// A write mask: lanes in the order x, y, z, w, each once; none is all four; `.none`
    /// (when `none_ok`) is no lane.
    pub(super) fn mask(&mut self, suffix: Option<TextRange>, none_ok: bool) -> Option<u8> {
        let Some(suffix) = suffix else {
            return Some(ops::MASK_ALL);
        };
        let text = &self.str(suffix)[1..];
        if text == names::MASK_NONE && none_ok {
            return Some(0);
        }
        let Ok(mask) = lower::mask(text.as_bytes(), true) else {
            let or_none = if none_ok { ", or is `.none`" } else { "" };
            let help = format!("a write mask lists the lanes written in the order x, y, z, w, each once{or_none}");
            return self.bad_suffix(suffix, "is not a write mask", &help);
        };
        if mask == 0 {
            return self.bad_suffix(suffix, "is not a write mask", "name a lane");
        }
        Some(mask)
    }

    /// A destination register term: `$N[.mask]`; or `None` and the pipeline register found.
    pub(super) fn dest_term(&mut self, operand: &Operand) -> Option<DestRead> {
        let (term, _) = self.plain_term(operand, "a destination register", false)?;
        match term.value {
            Value::Reg => Some(Ok((self.register(term.span, false)?, term.suffix))),
            Value::Pipe => Some(Err((self.pipeline(term.span)?, term))),
            _ => self.wrong_kind(operand.span, "a destination register"),
        }
    }

    /// The destination of a vector ALU: `$N[.mask]`, or `no_write` for none.
    pub(super) fn vec_alu_dest(&mut self, operand: &Operand, no_write: Pipeline) -> Option<Option<VecDest>> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(Some(VecDest {
                reg,
                mask: self.mask(suffix, false)?,
            })),
            Err((pipe, term)) if pipe == no_write => {
                if let Some(suffix) = term.suffix {
                    return self.bad_suffix(
                        suffix,
                        "is a mask on a destination that writes no register",
                        "drop the mask",
                    );
                }
                Some(None)
            }
            Err(_) => self.wrong_dest(operand, no_write),
        }
    }

    pub(super) fn wrong_dest<T>(&mut self, operand: &Operand, no_write: Pipeline) -> Option<T> {
        let expected = format!("a destination register, or `{}` to write none", no_write.name());
        self.wrong_kind(operand.span, &expected)
    }

    /// The destination of a scalar ALU: `$N.c`, or `no_write` for none.
    pub(super) fn scalar_alu_dest(&mut self, operand: &Operand, no_write: Pipeline) -> Option<Option<ScalarReg>> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(Some(reg * 4 + self.component(suffix, operand.span)?)),
            Err((pipe, term)) if pipe == no_write && term.suffix.is_none() => Some(None),
            Err(_) => self.wrong_dest(operand, no_write),
        }
    }

    /// `$N.c`.
    pub(super) fn scalar_dest(&mut self, operand: &Operand) -> Option<ScalarReg> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) => Some(reg * 4 + self.component(suffix, operand.span)?),
            Err(_) => self.wrong_kind(operand.span, "a register component"),
        }
    }

    /// `$N[.mask]` (`.none` allowed when `mask_ok`) or, without a mask, `$N`.
    pub(super) fn plain_vec_dest(&mut self, operand: &Operand, mask_ok: bool) -> Option<VecDest> {
        match self.dest_term(operand)? {
            Ok((reg, suffix)) if mask_ok => Some(VecDest {
                reg,
                mask: self.mask(suffix, true)?,
            }),
            Ok((reg, None)) => Some(VecDest {
                reg,
                mask: ops::MASK_ALL,
            }),
            Ok((_, Some(suffix))) => {
                self.bad_suffix(suffix, "is a mask where the whole register is written", "drop the mask")
            }
            Err(_) => self.wrong_kind(operand.span, "a register"),
        }
    }

    /// The destination of a scalar op of `.s2`: the scalar form (`$N.c`) or the vector form
    /// (`$N[.mask]`), as asked, or by the mask and the op.
    pub(super) fn combine_dest(
        &mut self,
        operand: &Operand,
        op: CombineOp,
        outmod: OutMod,
        form: Option<bool>,
        whole: &Op,
    ) -> Option<CombineDest> {
        let Ok((reg, suffix)) = self.dest_term(operand)? else {
            return self.wrong_kind(operand.span, "a destination register");
        };
        let vector = form.unwrap_or_else(|| {
            let one_lane = suffix.is_some_and(|s| lower::component(self.str(s).as_bytes()).is_some());
            lower::combine_vector(op, outmod, one_lane)
        });
        if vector {
            if outmod != OutMod::None {
                return self.bad_modifier(
                    whole.name,
                    outmod.info().name,
                    op.info().name(),
                    "no output modifier with a vector destination (write a one-component destination for the scalar form)",
                );
            }
            return Some(CombineDest::Vector(VecDest {
                reg,
                mask: self.mask(suffix, true)?,
            }));
        }
        Some(CombineDest::Scalar {
            reg: reg * 4 + self.component(suffix, operand.span)?,
            outmod,
        })
    }

    /// An index number: a whole number within `max`.
    pub(super) fn index(&mut self, term: &Term, max: u64, what: &str) -> Option<u64> {
        let text = self.str(term.span);
        match parse_int_literal(text) {
            Ok(n) if n <= max => Some(n),
            _ => self.reject(error::number_range(
                self.span(term.span),
                text,
                what,
                &format!("a whole number from 0 to {max}"),
            )),
        }
    }

    /// The offset register after `+`, when there is one: a scalar register without modifiers.
    pub(super) fn offset(&mut self, term: Option<Term>, reads: &mut Reads) -> Option<Option<ScalarReg>> {
        let Some(term) = term else { return Some(None) };
        let reg = match term.value {
            Value::Reg => Some(self.register(term.span, true)?),
            Value::Pipe => self.pipeline(term.span)?.vec_reg(),
            _ => None,
        };
        let Some(reg) = reg else {
            return self.wrong_kind(term.full_span(), "an offset register");
        };
        read_constant(reads, reg, term.span);
        Some(Some(reg * 4 + self.component(term.suffix, term.span)?))
    }

    /// `N`, `N.xy`/`N.zw` or `N.c`, with an optional `+$r.c`: a load or store index.
    pub(super) fn memory_index(
        &mut self,
        operand: &Operand,
        what: &str,
        reads: &mut Reads,
    ) -> Option<(Alignment, u16, Option<ScalarReg>)> {
        let (term, offset) = self.plain_term(operand, what, true)?;
        if term.value != Value::Number {
            return self.wrong_kind(operand.span, what);
        }
        let form = self.index_form(term.suffix)?;
        let max = form.largest(0xffff) as u64;
        let slot = self.index(&term, max, what.strip_prefix("a ").unwrap_or(what))?;
        let offset = self.offset(offset, reads)?;
        Some((form.alignment(), form.index(slot as i64) as u16, offset))
    }

    /// The form of an index by its suffix: none (vec4), `.xy`/`.zw` (vec2) or one lane.
    pub(super) fn index_form(&mut self, suffix: Option<TextRange>) -> Option<IndexForm> {
        let Some(suffix) = suffix else {
            return Some(IndexForm::Vec4);
        };
        IndexForm::of(self.str(suffix).as_bytes()).or_else(|| {
            self.bad_suffix(
                suffix,
                "is not an index part",
                "an index is `N` (a vec4), `N.xy` or `N.zw` (a vec2) or `N.x` ... `N.w` (one float)",
            )
        })
    }

    pub(super) fn varying(
        &mut self,
        perspective: Perspective,
        dest: &Operand,
        source: &Operand,
        reads: &mut Reads,
    ) -> Option<Varying> {
        let (reg, mask) = match self.dest_term(dest)? {
            Ok((reg, suffix)) => (reg, self.mask(suffix, true)?),
            Err((Pipeline::Discard, term)) => (ops::VARYING_DISCARD, self.mask(term.suffix, true)?),
            Err(_) => {
                return self.wrong_kind(
                    dest.span,
                    "a destination register, or `^discard` to feed only the texture unit",
                );
            }
        };
        let source = self.varying_source(perspective, source, reads)?;
        Some(Varying {
            dest: reg,
            mask,
            source,
        })
    }

    pub(super) fn varying_source(
        &mut self,
        perspective: Perspective,
        operand: &Operand,
        reads: &mut Reads,
    ) -> Option<VaryingSource> {
        const EXPECTED: &str = "a varying index, a register, `cube(...)`, `normalize(...)`, `gl_FragCoord`, `gl_PointCoord` or `gl_FrontFacing`";
        let no_perspective = |this: &mut Self, what: &str| match perspective {
            Perspective::None => Some(()),
            _ => this.reject(error::bad_modifier(
                this.span(operand.span),
                perspective.info().name,
                &format!("load.v with {what}"),
                "no perspective divide",
            )),
        };
        match &operand.expr {
            Expr::Call { name, arg, .. } if self.str(*name) != names::ABS => {
                let arg = self.args[*arg as usize];
                let func = self.str(*name);
                let cube = func == ops::VARYING_CUBE.name;
                let normalize = func == ops::VARYING_NORMALIZE.name;
                if operand.neg.is_some() || !(cube || normalize) {
                    return self.wrong_kind(operand.span, EXPECTED);
                }
                no_perspective(self, func)?;
                let is_index = matches!(&arg.expr, Expr::Term { term, .. } if term.value == Value::Number);
                if cube && is_index {
                    return Some(VaryingSource::Cube(self.varying_fetch(&arg, reads)?));
                }
                let (source, _) = self.vec_src(&arg, false, reads)?;
                Some(if cube {
                    VaryingSource::CubeRegister(source)
                } else {
                    VaryingSource::Normalize(source)
                })
            }
            Expr::Term { term, .. } if term.value == Value::Number => Some(VaryingSource::Fetch {
                perspective,
                fetch: self.varying_fetch(operand, reads)?,
            }),
            Expr::Term { term, offset } if term.value == Value::Name => {
                let text = self.str(term.span);
                let fixed = lower::FIXED_INPUTS.iter().find(|(kind, _)| kind.name == text);
                let Some((_, fixed)) = fixed.filter(|_| offset.is_none() && operand.neg.is_none()) else {
                    return self.wrong_kind(operand.span, EXPECTED);
                };
                no_perspective(self, text)?;
                if let Some(suffix) = term.suffix {
                    return self.bad_suffix(suffix, "follows a fixed input", "drop it");
                }
                Some(*fixed)
            }
            _ => {
                let (source, _) = self.vec_src(operand, false, reads)?;
                Some(VaryingSource::Register { perspective, source })
            }
        }
    }

    /// `N`, `N.xy`/`N.zw` or `N.c` with an optional `+$r.c`: a varying by index.
    pub(super) fn varying_fetch(&mut self, operand: &Operand, reads: &mut Reads) -> Option<VaryingFetch> {
        if operand.neg.is_some() {
            return self.reject(error::operand_modifier(self.span(operand.span), "a varying index"));
        }
        let (term, offset) = self.plain_term(operand, "a varying index", true)?;
        let form = self.index_form(term.suffix)?;
        let slot = self.index(&term, form.largest(63) as u64, "varying index")?;
        let reg = self.offset(offset, reads)?;
        if let (Some(o), Some(reg)) = (offset, reg)
            && lower::means_no_offset(reg)
        {
            return self.reject(error::register_range(
                self.span(o.full_span()),
                self.str(o.full_span()),
                "a varying offset cannot be `^uniform`: its register number means no offset".to_string(),
            ));
        }
        Some(VaryingFetch {
            alignment: form.varying_alignment(),
            index: form.index(slot as i64) as u8,
            offset: reg,
        })
    }

    pub(super) fn texld(&mut self, lod: bool, operands: &[Operand], reads: &mut Reads) -> Option<Sampler> {
        let (term, offset) = self.plain_term(&operands[0], "a sampler number", true)?;
        if term.value != Value::Number || term.suffix.is_some() {
            return self.wrong_kind(operands[0].span, "a sampler number");
        }
        let index = self.index(&term, 4095, "sampler number")? as u16;
        let offset = self.offset(offset, reads)?;
        let mut lod_bias = None;
        let mut constant: Option<i16> = None;
        for operand in &operands[1..] {
            match &operand.expr {
                Expr::Call { name, arg, .. } if self.str(*name) == names::BIAS && constant.is_none() => {
                    let arg = self.args[*arg as usize];
                    constant = Some(self.lod_bias(&arg)?);
                }
                Expr::Term { .. } if lod_bias.is_none() => {
                    lod_bias = Some(self.bare_scalar(operand, "a texture LOD register", reads)?);
                }
                _ => {
                    return self.wrong_kind(
                        operand.span,
                        "a LOD register (`$1.x`) or a constant bias (`bias(-0.5)`), each at most once",
                    );
                }
            }
        }
        Some(Sampler {
            index,
            offset,
            lod_bias,
            explicit_lod: lod,
            constant_lod_bias: constant.unwrap_or(0),
        })
    }

    /// The constant LOD bias in `bias(n)`: n in LOD units, a multiple of 1/16 from -16 to
    /// 15.9375; in the field, n * 16.
    pub(super) fn lod_bias(&mut self, arg: &Operand) -> Option<i16> {
        let (term, _) = self.plain_term(arg, "a number", false)?;
        let number = term.value == Value::Number && term.suffix.is_none();
        let value = parse_f64(self.str(term.span)).ok().filter(|_| number);
        match value.map(|v| v * 16.0) {
            Some(sixteenths) if sixteenths.fract() == 0.0 && (-256.0..=255.0).contains(&sixteenths) => {
                Some(sixteenths as i16)
            }
            _ => self.reject(error::number_range(
                self.span(arg.span),
                self.str(arg.span),
                "constant LOD bias",
                "a multiple of 1/16 (0.0625) from -16 to 15.9375",
            )),
        }
    }

    pub(super) fn store(&mut self, index: &Operand, source: &Operand, reads: &mut Reads) -> Option<Store> {
        let (alignment, index, offset) = self.memory_index(index, "a temporary index", reads)?;
        let src = self.bare(source, "a stored register", reads)?;
        let SrcReg::Vec(reg) = src.reg else {
            return self.wrong_kind(source.span, "a register to store");
        };
        let lane = match src.suffix {
            None if alignment == Alignment::Scalar => {
                // A whole register after a one-float index: alignment 3, as Mesa prints it.
                let lane = COMPONENTS[usize::from(index & 3)];
                let help = format!(
                    "to store one float, name its component: `{}.{lane}`",
                    self.str(source.span)
                );
                self.push(error::unused_encoding(
                    self.span(source.span),
                    self.str(source.span),
                    "a whole register stored to a one-float index (alignment 3)",
                    help,
                ));
                None
            }
            _ if alignment == Alignment::Scalar => Some(self.component(src.suffix, src.span)?),
            Some(suffix) => {
                return self.bad_suffix(
                    suffix,
                    "follows a register stored whole",
                    "a vec2 or vec4 store names the register alone; the index says which lanes",
                );
            }
            None => None,
        };
        Some(lower::temp_store(alignment, index, offset, reg, lane))
    }

    /// Records a branch target: a label, or a relative word offset with its sign.
    pub(super) fn branch_target(&mut self, operand: &Operand) {
        let Some((term, _)) = self.plain_term(operand, "a label or a relative word offset (`+4`)", false) else {
            return;
        };
        let index = self.words.pushed();
        let text = self.str(term.span);
        let target = match term.value {
            Value::Name if term.suffix.is_none() => Some(Target::Label(term.span)),
            Value::Number if term.suffix.is_none() && (text.starts_with('+') || text.starts_with('-')) => {
                parse_int_literal(&text[1..])
                    .ok()
                    .filter(|&n| n <= 1 << 40)
                    .map(|n| Target::Relative(if text.starts_with('-') { -(n as i64) } else { n as i64 }))
            }
            _ => None,
        };
        match target {
            Some(target) => self.branches.push((index, target, term.span)),
            None => {
                let expected = "a label or a relative word offset with its sign (`+4`, `-6`)";
                self.wrong_kind::<()>(operand.span, expected);
            }
        }
    }

    /// One fp16 constant: a decimal that binary16 holds exactly, `inf`, `-inf`, or raw bits
    /// in hexadecimal.
    pub(super) fn half(&mut self, operand: &Operand) -> Option<u16> {
        let expected = "a number (`1.5`, `-0.25`, `inf`, or raw bits `0x7e00`)";
        let term = match &operand.expr {
            Expr::Term { term, offset: None } if term.suffix.is_none() => *term,
            _ => return self.wrong_kind(operand.span, expected),
        };
        let text = self.str(term.span);
        let neg = operand.neg.is_some();
        let span = operand.span;
        // Diagnostics quote the operand as written, its `-` included.
        let written = self.str(span);
        let signed = text.starts_with(['+', '-']);
        if !neg && signed && text[1..].starts_with(['+', '-']) {
            // `+-1`, `++1`: the lexer reads both signs as the number's.
            let sign = if text[..1] == text[1..2] { "" } else { "-" };
            return self.reject(error::doubled_sign(
                self.span(span),
                written,
                &format!("{sign}{}", &text[2..]),
            ));
        }
        if neg && signed {
            // `--1`, `-+1`: the lexer reads the second sign as the number's own.
            let one = match text.strip_prefix('-') {
                Some(positive) => positive.to_string(),
                None => format!("-{}", &text[1..]),
            };
            return self.reject(error::doubled_sign(self.span(span), written, &one));
        }
        let unsigned = text.trim_start_matches(['+', '-']);
        match term.value {
            Value::Name if text == "inf" => return Some(if neg { 0xfc00 } else { 0x7c00 }),
            Value::Number if unsigned.starts_with("0x") || unsigned.starts_with("0X") => {
                return match parse_int_literal(unsigned) {
                    Ok(bits) if bits <= 0xffff && !neg && !signed => Some(bits as u16),
                    Ok(bits) if bits <= 0xffff => {
                        let help = if neg || text.starts_with('-') {
                            format!(
                                "raw bits take no sign; the sign is bit 15: write `{:#06x}`",
                                bits ^ 0x8000
                            )
                        } else {
                            format!("raw bits take no sign: write `{unsigned}`")
                        };
                        self.reject(error::number_malformed(self.span(span), written, help))
                    }
                    _ => self.reject(error::number_range(
                        self.span(span),
                        written,
                        "fp16 bit pattern",
                        "0x0000 to 0xffff",
                    )),
                };
            }
            Value::Number => {}
            _ => return self.wrong_kind(span, expected),
        }
        let Ok(value) = parse_f64(text) else {
            return self.reject(error::number_range(
                self.span(span),
                written,
                "number",
                "decimal digits with an optional sign, fraction and exponent",
            ));
        };
        let value = if neg { -value } else { value };
        if value.abs() > 65504.0 {
            return self.reject(error::half_range(self.span(span), self.str(span)));
        }
        let bits = polyasm_core::half::nearest(value);
        if polyasm_core::half::to_f64(bits) != value {
            let nearest = format!("{:?}", polyasm_core::half::to_f64(bits));
            return self.reject(error::inexact_half(self.span(span), self.str(span), &nearest));
        }
        Some(bits)
    }
}

/// Notes the first read of `^const0` or `^const1` at `span`, when `reg` is one of them.
fn read_constant(reads: &mut Reads, reg: u8, span: TextRange) {
    if let Some(slot) = reads.consts.get_mut(usize::from(reg.wrapping_sub(ops::REG_CONST0))) {
        slot.get_or_insert(span);
    }
}
