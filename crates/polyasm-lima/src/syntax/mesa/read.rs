//! Mesa's text read back into instructions: lines, fields and their opcode words.

use std::convert::Infallible;
use std::ops::Range;

use polyasm_core::front::{self, Spanned, StatementLexer};

use crate::instr::{Branch, Combine, FloatAcc, FloatMul, Instr, Load, Sampler, Store, VecAcc, VecMul};
use crate::ops::{self, Alignment, BranchCond, FORMS, Field, Form, Model, OutMod};
use crate::syntax::operation::Operation;

use super::operand::*;
use super::print::print_instr;
use super::word::*;

// Reading: Mesa's text back into instructions. A line is read over its bytes: an optional
// `@N: ` prefix, then the fields, each the text between two commas, split into words at
// spaces; `sync` and `stop` close the line. Every bit the text does not show gets the value
// Mesa's compiler writes there, so that Mesa's own output reassembles to the same words.

/// One instruction read from Mesa's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadInstr {
    /// The instruction, its branch target made relative.
    pub instr: Instr,
    /// Its word offset in the program.
    pub offset: usize,
    /// The byte range of its line (without the line break).
    pub line: Range<usize>,
}

/// Whether the first line of `text` that holds anything (blank lines and `#` comments
/// aside) starts with the `@N: ` prefix of Mesa's standalone disassembler.
pub fn has_offset_prefix(text: &str) -> bool {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim_start())
        .find(|line| !line.trim_end().is_empty())
        .and_then(|line| line.strip_prefix('@'))
        .is_some_and(|rest| {
            let rest = rest.trim_start_matches(' ');
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && rest[digits..].starts_with(':')
        })
}

/// Reads a whole program of Mesa's text: one instruction per line, with or without the `@N: `
/// prefix (checked against the sizes of the instructions before it when present); blank
/// lines and `#` comments are skipped. Branch targets, absolute word offsets in the text,
/// become relative ones and must be instruction starts. Returns the instructions read and
/// every error; the instructions are the program only when there is no error.
pub fn read_program(text: &str) -> (Vec<ReadInstr>, Vec<MesaError>) {
    // Lines are read on their own, a chunk at a time, on a second thread for big texts; the
    // offsets and targets that join them are worked out by the encoder, in order.
    front::assemble(Lines { text, pos: 0 }, Program::default())
}

/// Mesa's text a line at a time: the reading stage of [`read_program`], and its statement
/// lexer, which hands over each line (split at `\n`) as a statement of one token whose span is
/// the line without its line break.
struct Lines<'s> {
    text: &'s str,
    /// Where the next line starts.
    pos: usize,
}

impl<'s> StatementLexer<'s> for Lines<'s> {
    type Token = ();
    type Error = Infallible;

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn next_statement(&mut self, out: &mut Vec<Spanned<()>>) -> Result<(), Infallible> {
        let rest = &self.text[self.pos..];
        let raw = rest.find('\n').map_or(rest, |end| &rest[..end]);
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        out.push(((), self.pos..self.pos + line.len()));
        self.pos += raw.len() + 1;
        Ok(())
    }
}

impl<'s> front::Reader<'s> for Lines<'s> {
    type Lexer = Lines<'s>;
    type Chunk = Vec<(Range<usize>, LineResult)>;

    fn parallel(&self) -> bool {
        self.text.len() >= front::PIPELINE_MIN_BYTES
    }

    fn lexer(&self) -> Lines<'s> {
        Lines { pos: 0, ..*self }
    }

    /// Each line read, with its byte range.
    fn parse(&mut self, lines: &[Spanned<()>], _: &[Range<usize>], _: Vec<Infallible>) -> Self::Chunk {
        lines
            .iter()
            .map(|(_, line)| (line.clone(), read_line(&self.text[line.clone()], line.start)))
            .collect()
    }
}

/// The encoding stage of [`read_program`]: the lines read, joined in order by their word
/// offsets, and the errors found.
#[derive(Default)]
struct Program {
    instrs: Vec<ReadInstr>,
    errors: Vec<MesaError>,
    /// (instruction, absolute target, span of the target).
    branches: Vec<(usize, i64, Range<usize>)>,
    /// The word offset of the next instruction.
    offset: usize,
    /// Whether the `@N: ` prefixes are no longer checked: after a wrong one or a failed line.
    offsets_unchecked: bool,
}

impl front::Encode<Vec<(Range<usize>, LineResult)>> for Program {
    type Output = (Vec<ReadInstr>, Vec<MesaError>);

    fn encode(&mut self, lines: Vec<(Range<usize>, LineResult)>) {
        for (line, read) in lines {
            let read = match read {
                Ok(Some(read)) => read,
                Ok(None) => continue,
                Err(e) => {
                    self.errors.push(e);
                    // The sizes of the lines after a failed one are not known.
                    self.offsets_unchecked = true;
                    continue;
                }
            };
            if let Some((printed, span)) = read.prefix
                && !self.offsets_unchecked
                && printed != self.offset as u64
            {
                self.errors.push(MesaError {
                    span,
                    kind: MesaErrorKind::Offset {
                        printed,
                        actual: self.offset,
                    },
                });
                // Every later offset would disagree too.
                self.offsets_unchecked = true;
            }
            if let Some((target, span)) = read.branch {
                self.branches.push((self.instrs.len(), target, span));
            }
            self.instrs.push(ReadInstr {
                instr: read.instr,
                offset: self.offset,
                line,
            });
            self.offset += read.instr.count() as usize;
        }
    }

    /// Makes the branch targets relative, once every line is read without an error.
    fn finish(mut self) -> (Vec<ReadInstr>, Vec<MesaError>) {
        if !self.errors.is_empty() {
            return (self.instrs, self.errors);
        }
        let starts: Vec<usize> = self.instrs.iter().map(|r| r.offset).collect();
        for (index, target, span) in self.branches {
            let relative = target - starts[index] as i64;
            let found = usize::try_from(target).ok().and_then(|t| starts.binary_search(&t).ok());
            if found.is_none() || !crate::syntax::in_branch_range(relative) {
                let after = starts.partition_point(|&s| (s as i64) <= target);
                self.errors.push(MesaError {
                    span,
                    kind: MesaErrorKind::Target {
                        target,
                        nearest: (after.checked_sub(1).map(|i| starts[i]), starts.get(after).copied()),
                    },
                });
                continue;
            }
            if let Some(Branch::Jump { target, .. }) = &mut self.instrs[index].instr.branch {
                *target = relative as i32;
            }
        }
        (self.instrs, self.errors)
    }
}

/// What [`read_line`] gives.
type LineResult = Result<Option<LineRead>, MesaError>;

/// Reads the text of one instruction printed at word `offset` (as [`print_instr`] prints it,
/// without the prefix); the branch target becomes relative to `offset` without further checks.
pub fn read_instr(text: &str, offset: usize) -> Result<Instr, MesaError> {
    let line = format!("@{offset}: {text}");
    let read = read_line(&line, 0)?.expect("invariant: a line with a prefix is an instruction");
    let mut instr = read.instr;
    if let (Some((target, _)), Some(Branch::Jump { target: relative, .. })) = (read.branch, &mut instr.branch) {
        *relative = (target - offset as i64) as i32;
    }
    Ok(instr)
}

/// The fields of `instr` whose bits its Mesa text (printed at word `offset`) does not show:
/// reading the text back gives other values there. Empty when the text is exact.
pub fn unshown_fields(instr: &Instr, offset: usize) -> Vec<Field> {
    let Ok(back) = read_instr(&print_instr(instr, offset), offset) else {
        return Field::ALL.into_iter().filter(|f| instr.has(*f)).collect();
    };
    let (original, read) = (instr.encode_fields(0), back.encode_fields(0));
    let bits = |fields: &[(Field, u128)], field| fields.iter().find(|(f, _)| *f == field).map(|(_, bits)| *bits);
    Field::ALL
        .into_iter()
        .filter(|&f| bits(&original, f) != bits(&read, f))
        .collect()
}

/// A line read: its `@` offset, the instruction, and the absolute target of its branch.
struct LineRead {
    prefix: Option<(u64, Range<usize>)>,
    instr: Instr,
    branch: Option<(i64, Range<usize>)>,
}

/// The op name and output modifier of `head` (`max.pos`).
fn split_outmod(head: &str) -> (&str, OutMod) {
    let mut outmods = ops::OUTMODS.iter().filter(|r| !r.mesa.is_empty());
    outmods
        .find_map(|r| Some((head.strip_suffix(r.mesa)?, r.value)))
        .unwrap_or((head, OutMod::None))
}

/// What `name` names, if anything: one of [`all_mnemonics`] (a name of [`FORMS`]'s Mesa column
/// in one lookup), or an ALU op with an output modifier before its unit (`max.pos.v0`). The
/// operation always writes a field: the control bits are no operation of Mesa's.
fn mnemonic(name: &str) -> Option<Operation> {
    let named = match Form::from_second_mnemonic(name) {
        Some(form) => Some(Operation::new(form)),
        None => all_mnemonics().iter().find(|(n, _)| n == name).map(|(_, m)| *m),
    };
    if let Some(m) = named {
        return m.field().is_some().then_some(m);
    }
    let dot = name.rfind('.')?;
    let (op, outmod) = split_outmod(&name[..dot]);
    let mut buffer = [0u8; polyasm_core::table::MAX_NAME_LEN];
    let bare = polyasm_core::table::join_into(op, &name[dot..], &mut buffer)?;
    let mut m = Operation::new(Form::from_second_mnemonic(bare)?);
    m.outmod = outmod;
    let alu = matches!(
        m.model(),
        Model::Mul(_) | Model::Acc(_) | Model::Combine(_) | Model::CombineMul | Model::AtanPt2
    );
    alu.then_some(m)
}

/// The field `name` writes and its operation, if it names one ([`mnemonic`]).
fn field_op(name: &str) -> Option<(Field, Operation)> {
    mnemonic(name).and_then(|m| Some((m.field()?, m)))
}

/// Every operation name Mesa prints and what it names, in the order suggestions offer them:
/// the Mesa column of [`FORMS`] in row order, a varying fetch with each perspective, texld
/// also with its bias register, a branch with each condition.
fn all_mnemonics() -> &'static [(String, Operation)] {
    static NAMES: std::sync::OnceLock<Vec<(String, Operation)>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = Vec::new();
        for row in &FORMS {
            let Some(mesa) = row.second else { continue };
            let plain = Operation::new(row.op);
            let mut m = plain;
            match row.model {
                Model::Stop | Model::Sync => {}
                Model::Varying => {
                    for perspective in ops::PERSPECTIVES {
                        m.perspective = perspective.value;
                        names.push((format!("{}{}{}", row.mesa_name(), perspective.mesa, row.unit()), m));
                    }
                }
                Model::Texld => {
                    m.bias_register = true;
                    names.push((mesa.to_string(), plain));
                    names.push((format!("{mesa}{}", ops::TEXLD_BIAS_SUFFIX), m));
                }
                Model::Branch => {
                    for cond in ops::BRANCH_CONDS {
                        m.cond = cond.value;
                        let name = match cond.mesa {
                            "" => mesa.to_string(),
                            name => format!("{mesa}.{name}"),
                        };
                        names.push((name, m));
                    }
                }
                _ => names.push((mesa.to_string(), plain)),
            }
        }
        names
    })
}

/// The name with its output modifier taken out (`max.pos.v0` -> `max.v0`), for suggestions.
fn without_outmod(name: &str) -> String {
    match name.rfind('.') {
        Some(dot) => format!("{}{}", split_outmod(&name[..dot]).0, &name[dot..]),
        None => name.to_string(),
    }
}

fn unknown_op(word: Word) -> MesaError {
    let bare = without_outmod(word.text);
    let suggestion = polyasm_core::text::suggest(&bare, all_mnemonics().iter().map(|(n, _)| n.as_str()));
    word.error(MesaErrorKind::UnknownOp {
        name: word.text.to_string(),
        suggestion,
    })
}

/// Reads one line: `None` for a line with nothing on it.
fn read_line(line: &str, base: usize) -> Result<Option<LineRead>, MesaError> {
    let line = Word {
        text: line.split('#').next().unwrap_or_default(),
        at: base,
    };
    let mut rest = line.trim();
    if rest.text.is_empty() {
        return Ok(None);
    }
    let mut prefix = None;
    if let Some(after_at) = rest.strip_prefix("@") {
        let Some(colon) = after_at.text.find(':') else {
            return Err(rest.expected("the offset prefix `@N: `"));
        };
        let number = after_at.until(colon).trim();
        prefix = Some((decimal(number, "an offset")?, rest.until(colon + 2).span()));
        rest = after_at.from(colon + 1).trim();
        if rest.text.is_empty() {
            // Mesa prints an instruction with no fields and no flags as the prefix alone.
            return Ok(Some(LineRead {
                prefix,
                instr: Instr::default(),
                branch: None,
            }));
        }
    }
    // The fields and flags, each the text between commas.
    let mut parts: Vec<Word> = rest.split(|c| c == ',').map(Word::trim).collect();
    // Mesa prints `, sync` and `, stop` after an empty list of fields.
    if parts.len() > 1 && parts[0].text.is_empty() {
        parts.remove(0);
    }
    // Each field's mnemonic and words, the first word its name.
    let mut fields: Vec<(Field, Operation, Vec<Word>)> = Vec::with_capacity(parts.len());
    let mut instr = Instr::default();
    for part in &parts {
        let words = part.words();
        let Some((&name, operands)) = words.split_first() else {
            return Err(part.error(MesaErrorKind::Flags { found: String::new() }));
        };
        let (sync, stop) = (Form::Sync.info().mesa_name(), Form::Stop.info().mesa_name());
        if name.text == sync || name.text == stop {
            if let Some(extra) = operands.first() {
                return Err(extra.expected("`,` after the flag"));
            }
            let stop = name.text == stop;
            // `sync` comes before `stop`, each once.
            if instr.stop || (!stop && instr.sync) {
                return Err(name.error(MesaErrorKind::Flags {
                    found: name.text.to_string(),
                }));
            }
            instr.stop |= stop;
            instr.sync |= !stop;
            continue;
        }
        if instr.sync || instr.stop {
            return Err(part.error(MesaErrorKind::Flags {
                found: part.text.to_string(),
            }));
        }
        let Some((field, m)) = field_op(name.text) else {
            return Err(unknown_op(name));
        };
        if let Some(&(previous, ..)) = fields.last()
            && previous >= field
        {
            return Err(field_order(name, field, previous, &parts));
        }
        fields.push((field, m, words));
    }
    let mut branch = None;
    for (_, m, words) in fields {
        read_field(m, words[0], &words[1..], &mut instr, &mut branch)?;
    }
    Ok(Some(LineRead { prefix, instr, branch }))
}

/// The error of a field out of order, with the line's fields in the right order.
fn field_order(name: Word, field: Field, previous: Field, parts: &[Word]) -> MesaError {
    let reordered = if field == previous {
        String::new()
    } else {
        let mut sorted: Vec<(usize, &str)> = parts
            .iter()
            .map(|part| {
                let first = part.text.split_whitespace().next().unwrap_or_default();
                let rank = match field_op(first) {
                    Some((field, _)) => field as usize,
                    // Flags go last, `sync` before `stop`.
                    None if first == Form::Sync.info().mesa_name() => Field::ALL.len(),
                    None => Field::ALL.len() + 1,
                };
                (rank, part.text)
            })
            .collect();
        sorted.sort_by_key(|(rank, _)| *rank);
        sorted.iter().map(|(_, text)| *text).collect::<Vec<_>>().join(", ")
    };
    name.error(MesaErrorKind::FieldOrder {
        field: field.info().mesa,
        after: previous.info().mesa,
        reordered,
    })
}

/// Checks the number of operands of `name`: `counts` are the accepted numbers, described by
/// `expected`.
fn operand_count(name: Word, operands: &[Word], counts: &[usize], expected: &str) -> Result<(), MesaError> {
    operand_count_with(name, operands, counts, || expected.to_string())
}

/// [`operand_count`], with the expected operands described only when they are wrong.
fn operand_count_with(
    name: Word,
    operands: &[Word],
    counts: &[usize],
    expected: impl FnOnce() -> String,
) -> Result<(), MesaError> {
    if counts.contains(&operands.len()) {
        return Ok(());
    }
    let span = match (operands.first(), operands.last()) {
        (Some(first), Some(last)) => first.at..last.at + last.text.len(),
        _ => name.span(),
    };
    Err(MesaError {
        span,
        kind: MesaErrorKind::OperandCount {
            op: name.text.to_string(),
            expected: expected(),
            found: operands.len(),
        },
    })
}

/// "a destination and 1 source", "a destination and 2 sources".
fn describe_operands(sources: u8) -> String {
    let plural = if sources == 1 { "" } else { "s" };
    format!("a destination and {sources} source{plural}")
}

/// The destination, when written, and the sources of an ALU op of `sources` sources.
fn alu_operands<'w, 'a>(
    name: Word,
    operands: &'w [Word<'a>],
    sources: u8,
) -> Result<(Option<Word<'a>>, &'w [Word<'a>]), MesaError> {
    let n = usize::from(sources);
    operand_count_with(name, operands, &[n, n + 1], || {
        format!(
            "{} (the destination only when it writes a register)",
            describe_operands(sources)
        )
    })?;
    // The destination is there when there is one more operand than sources.
    Ok(match operands.split_first() {
        Some((dest, sources)) if operands.len() > n => (Some(*dest), sources),
        _ => (None, operands),
    })
}

/// The second of `sources`, read by `read` without the multiplier's result, when there is one.
fn second_source<T>(
    sources: &[Word],
    read: fn(Word, bool) -> Result<(T, bool), MesaError>,
) -> Result<Option<T>, MesaError> {
    sources.get(1).map(|w| read(*w, false).map(|s| s.0)).transpose()
}

/// Reads the operands of `m`, written with the word `name`, into its field of `instr`; a
/// branch's absolute target goes to `branch`.
fn read_field(
    m: Operation,
    name: Word,
    operands: &[Word],
    instr: &mut Instr,
    branch: &mut Option<(i64, Range<usize>)>,
) -> Result<(), MesaError> {
    match m.model() {
        // The control bits are no field: `mnemonic` names none of them.
        Model::Stop | Model::Sync | Model::Nop => {}
        Model::Varying => {
            operand_count(name, operands, &[2], "a destination and a source")?;
            instr.varying = Some(read_varying(m.perspective, name, operands[0], operands[1])?);
        }
        Model::Texld => {
            let (count, what) = match m.bias_register {
                true => (3, "a bias, a sampler and a bias register"),
                false => (2, "a bias and a sampler"),
            };
            operand_count(name, operands, &[count], what)?;
            let (index, offset) = split_offset(operands[1])?;
            let index = decimal(index, "a sampler number")?;
            if index > 0xfff {
                return Err(operands[1].out_of_range("sampler", "0 to 4095"));
            }
            let lod_bias = match m.bias_register {
                true => Some(plain_scalar(operands[2], "the LOD bias register")?),
                false => None,
            };
            instr.sampler = Some(Sampler {
                index: index as u16,
                offset,
                lod_bias,
                explicit_lod: false,
                constant_lod_bias: lod_bias_constant(operands[0])?,
            });
        }
        Model::Load(source) => {
            operand_count(name, operands, &[1], "an index")?;
            let (alignment, index, offset) = memory_index(operands[0])?;
            instr.load = Some(Load {
                source,
                alignment,
                index,
                offset,
            });
        }
        Model::Mul(op) => {
            let (dest, sources) = alu_operands(name, operands, op.info().sources())?;
            let (arg0, code) = with_shift(sources[0], op)?;
            let (op, shift) = ops::mul_op_from_code(code).expect("invariant: shift codes are 0-7");
            let outmod = m.outmod;
            if m.is_vector() {
                instr.vec4_mul = Some(VecMul {
                    op,
                    shift,
                    outmod,
                    dest: dest.map(|d| read_vec_dest(d, false)).transpose()?,
                    arg0: read_vec_source(arg0, false)?.0,
                    arg1: second_source(sources, read_vec_source)?,
                });
            } else {
                instr.float_mul = Some(FloatMul {
                    op,
                    shift,
                    outmod,
                    dest: dest.map(scalar_dest).transpose()?,
                    arg0: read_scalar_source(arg0, false)?.0,
                    arg1: second_source(sources, read_scalar_source)?,
                });
            }
        }
        Model::Acc(op) => {
            let (dest, sources) = alu_operands(name, operands, op.info().sources())?;
            let outmod = m.outmod;
            if m.is_vector() {
                let (arg0, mul_in) = read_vec_source(sources[0], true)?;
                instr.vec4_acc = Some(VecAcc {
                    op,
                    outmod,
                    dest: dest.map(|d| read_vec_dest(d, false)).transpose()?,
                    mul_in,
                    arg0,
                    arg1: second_source(sources, read_vec_source)?,
                });
            } else {
                let (arg0, mul_in) = read_scalar_source(sources[0], true)?;
                instr.float_acc = Some(FloatAcc {
                    op,
                    outmod,
                    dest: dest.map(scalar_dest).transpose()?,
                    mul_in,
                    arg0,
                    arg1: second_source(sources, read_scalar_source)?,
                });
            }
        }
        Model::Combine(op) => {
            let n = op.info().sources();
            operand_count_with(name, operands, &[usize::from(n) + 1], || describe_operands(n))?;
            instr.combine = Some(Combine::Scalar {
                op,
                dest: combine_dest(op, m.outmod, operands[0])?,
                arg0: read_scalar_source(operands[1], false)?.0,
                arg1: second_source(&operands[1..], read_scalar_source)?,
            });
        }
        Model::CombineMul => {
            no_outmod(name, m.outmod)?;
            operand_count(name, operands, &[3], "a destination, a scalar and a vector")?;
            let dest = read_vec_dest(operands[0], true)?;
            let (arg1, swizzle) = plain_vector(operands[2])?;
            instr.combine = Some(Combine::MulVec {
                dest,
                arg0: read_scalar_source(operands[1], false)?.0,
                arg1,
                swizzle,
            });
        }
        Model::AtanPt2 => {
            no_outmod(name, m.outmod)?;
            operand_count(name, operands, &[2], "a destination and a vector")?;
            let (outmod, dest) = split_outmod_prefix(operands[0]);
            let (arg, swizzle) = plain_vector(operands[1])?;
            instr.combine = Some(Combine::AtanPt2 {
                dest: scalar_dest(dest)?,
                outmod,
                arg,
                swizzle,
            });
        }
        Model::Store => {
            operand_count(name, operands, &[2], "an index and a source")?;
            let (alignment, index, offset) = memory_index(operands[0])?;
            let (reg, lane) = match alignment {
                Alignment::Scalar => match source_register(operands[1]) {
                    // A whole register after a one-float index: Mesa's text of alignment 3.
                    Ok((reg, rest)) if rest.text.is_empty() => (reg, None),
                    _ => {
                        let scalar = plain_scalar(operands[1], "the stored register")?;
                        (scalar >> 2, Some(scalar & 3))
                    }
                },
                _ => (plain_vector_register(operands[1])?, None),
            };
            instr.store = Some(crate::syntax::lower::temp_store(alignment, index, offset, reg, lane));
        }
        Model::FbRead(read) => {
            operand_count(name, operands, &[1], "a destination")?;
            let (dest, rest) = dest_register(operands[0])?;
            if !rest.text.is_empty() {
                return Err(rest.expected("the end of the destination (a whole register)"));
            }
            instr.store = Some(Store::FbRead { read, dest });
        }
        Model::Discard => {
            operand_count(name, operands, &[0], "no operands")?;
            instr.branch = Some(Branch::Discard);
        }
        Model::Branch => {
            let cond = m.cond;
            let always = cond == BranchCond::Always;
            let what = if always { "a target" } else { "two scalars and a target" };
            operand_count(name, operands, &[if always { 1 } else { 3 }], what)?;
            let (arg0, arg1) = match always {
                true => (0, 0),
                false => (
                    plain_scalar(operands[0], "a branch operand")?,
                    plain_scalar(operands[1], "a branch operand")?,
                ),
            };
            let target_word = operands[operands.len() - 1];
            *branch = Some((signed_decimal(target_word, "a target word offset")?, target_word.span()));
            instr.branch = Some(Branch::Jump {
                cond,
                arg0,
                arg1,
                target: 0,
            });
        }
        Model::Const => {
            operand_count(name, operands, &[4], "4 numbers")?;
            let mut values = [0u16; 4];
            for (value, word) in values.iter_mut().zip(operands) {
                *value = half_from_text(word.text).ok_or_else(|| {
                    word.error(MesaErrorKind::Constant {
                        found: word.text.to_string(),
                    })
                })?;
            }
            match m.form {
                Form::Const0 => instr.const0 = Some(values),
                _ => instr.const1 = Some(values),
            }
        }
    }
    Ok(())
}
