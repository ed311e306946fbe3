//! What an operation of the proposed syntax is, read from its opcode word and unit alone:
//! [`Kind`], the modifiers, the older names, and the diagnostic a word draws, as data. The
//! parsing stage reads every word here; the encoder reports what does not read.

use crate::ops::proposed::{self as names};
use crate::ops::{
    AccOp, BRANCH_CONDS, BranchCond, CombineOp, FORMS, FbRead, Field, Form, FormInfo, LoadSource, Model, MulOp,
    OUTMODS, OutMod, PERSPECTIVES, Perspective,
};

/// What an operation is, once its opcode, unit and modifiers are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Stop,
    Sync,
    Nop,
    Varying(Perspective),
    Texld {
        lod: bool,
    },
    Load(LoadSource),
    VecMul(MulOp, i8, OutMod),
    FloatMul(MulOp, i8, OutMod),
    VecAcc(AccOp, OutMod),
    FloatAcc(AccOp, OutMod),
    /// The op, its output modifier and the destination form asked for (`Some(true)`: `_vec`).
    CombineScalar(CombineOp, OutMod, Option<bool>),
    CombineMul,
    AtanPt2(OutMod),
    Store,
    FbRead(FbRead),
    Branch(BranchCond),
    Discard,
    Const(usize),
}

impl Kind {
    /// The position in the control word: stop, sync, then the fields; `None` for `nop`.
    pub(super) fn slot(self) -> Option<usize> {
        let field = match self {
            Kind::Stop => return Some(0),
            Kind::Sync => return Some(1),
            Kind::Nop => return None,
            Kind::Varying(_) => Field::Varying,
            Kind::Texld { .. } => Field::Sampler,
            Kind::Load(_) => Field::Uniform,
            Kind::VecMul(..) => Field::Vec4Mul,
            Kind::FloatMul(..) => Field::FloatMul,
            Kind::VecAcc(..) => Field::Vec4Acc,
            Kind::FloatAcc(..) => Field::FloatAcc,
            Kind::CombineScalar(..) | Kind::CombineMul | Kind::AtanPt2(_) => Field::Combine,
            Kind::Store | Kind::FbRead(_) => Field::TempWrite,
            Kind::Branch(_) | Kind::Discard => Field::Branch,
            Kind::Const(0) => Field::Const0,
            Kind::Const(_) => Field::Const1,
        };
        Some(2 + field.info().index as usize)
    }

    /// Its row of [`FORMS`] (for an ALU op, the vector unit's: the operands are the same).
    fn row(self) -> &'static FormInfo {
        let form = match self {
            Kind::Stop => Form::Stop,
            Kind::Sync => Form::Sync,
            Kind::Nop => Form::Nop,
            Kind::Varying(_) => Form::LoadV,
            Kind::Texld { .. } => Form::Texld,
            Kind::Load(source) => source.form(),
            Kind::VecMul(op, ..) | Kind::FloatMul(op, ..) => op.form(),
            Kind::VecAcc(op, _) | Kind::FloatAcc(op, _) => op.form(),
            Kind::CombineScalar(op, ..) => op.form(),
            Kind::CombineMul => Form::MulS2,
            Kind::AtanPt2(_) => Form::AtanPt2S2,
            Kind::Store => Form::StoreT,
            Kind::FbRead(read) => read.form(),
            Kind::Branch(_) => Form::Branch,
            Kind::Discard => Form::Discard,
            Kind::Const(0) => Form::Const0,
            Kind::Const(_) => Form::Const1,
        };
        form.info()
    }

    /// The operands it takes, as words for the help line (`dest src1 src2`): its row's, but
    /// only the target for an unconditional branch.
    pub(super) fn form(self) -> &'static [&'static str] {
        match self {
            Kind::Branch(BranchCond::Always) => &["target"],
            _ => self.row().operands,
        }
    }

    /// How many operands it takes, at least and at most.
    pub(super) fn operand_range(self) -> (usize, usize) {
        let form = self.form();
        let required = form.iter().filter(|w| !w.starts_with('[')).count();
        (required, form.len())
    }

    /// Whether its first operand is a destination that the older examples wrote last.
    pub(super) fn has_dest(self) -> bool {
        self.form().first() == Some(&"dest")
    }

    /// The name of its unit for messages.
    pub(super) fn unit_name(self) -> &'static str {
        match self {
            Kind::Stop => "`stop`",
            Kind::Sync => "`sync`",
            Kind::Nop => "`nop`",
            _ => self.slot().map_or("", |s| Field::ALL[s - 2].info().unit_name),
        }
    }
}

/// `word` with an older name of an opcode at its start replaced by the current one (the
/// aliases of [`FORMS`]); `replaced` sees each older name replaced.
pub(super) fn current_name<'w>(
    word: &'w str,
    mut replaced: impl FnMut(&'static str, &'static str),
) -> std::borrow::Cow<'w, str> {
    let mut word = std::borrow::Cow::Borrowed(word);
    for &(old, new) in &names::OLD_OPCODES {
        if let Some(rest) = split(&word, old) {
            replaced(old, new);
            let renamed = format!("{new}{rest}");
            word = std::borrow::Cow::Owned(renamed);
        }
    }
    word
}

/// Why an opcode word names no operation on its unit.
pub(super) enum KindError<'w> {
    /// No opcode of that unit starts the word (PP002 or PP003, from the word alone).
    Unknown,
    /// `op` does not take `modifier`; the modifiers start `base_len` bytes into the word.
    BadModifier {
        base_len: usize,
        modifier: &'w str,
        op: &'static str,
        allowed: std::borrow::Cow<'static, str>,
    },
    /// Two modifiers of one sort (`what`: output modifiers, shifts).
    Conflict {
        base_len: usize,
        op: &'static str,
        what: &'static str,
        found: Vec<&'static str>,
    },
}

/// The row of [`FORMS`] that the longest base of `word` (the word, or the text before one of
/// its `_`) names with `unit`, and the modifiers after that base. One `match` lookup per base.
pub(super) fn row_of<'w>(word: &'w str, unit: Option<&str>) -> Option<(&'static FormInfo, &'w str)> {
    let unit = unit.unwrap_or_default();
    let mut buffer = [0u8; polyasm_core::table::MAX_NAME_LEN];
    let mut end = word.len();
    loop {
        let base = &word[..end];
        let form = polyasm_core::table::join_into(base, unit, &mut buffer)
            .and_then(|name| Form::from_mnemonic(name).filter(|f| f.mnemonic() == name));
        if let Some(form) = form {
            return Some((form.info(), &word[end..]));
        }
        end = base.rfind('_')?;
    }
}

/// The operation of `word` (older names already replaced) on `unit`.
pub(super) fn kind_of<'w>(word: &'w str, unit: Option<&str>) -> Result<Kind, KindError<'w>> {
    let bad = |base: &str, modifier: &'w str, op: &'static str, allowed: &'static str| {
        Err(KindError::BadModifier {
            base_len: base.len(),
            modifier,
            op,
            allowed: allowed.into(),
        })
    };
    let (row, rest) = row_of(word, unit).ok_or(KindError::Unknown)?;
    let name = row.name();
    match row.model {
        Model::Texld => match rest {
            "" => Ok(Kind::Texld { lod: false }),
            names::TEXLD_LOD => Ok(Kind::Texld { lod: true }),
            _ => bad(name, rest, name, "`_lod`"),
        },
        Model::Branch => {
            if rest.is_empty() {
                return Ok(Kind::Branch(BranchCond::Always));
            }
            let cond = rest
                .strip_prefix(names::COND_PREFIX)
                .and_then(|c| BRANCH_CONDS.iter().find(|r| !r.name.is_empty() && r.name == c));
            match cond {
                Some(row) => Ok(Kind::Branch(row.value)),
                None => bad(
                    name,
                    rest,
                    name,
                    "a condition: `_lt`, `_eq`, `_le`, `_gt`, `_ne`, `_ge` or `_nv`",
                ),
            }
        }
        Model::Varying => {
            if rest.is_empty() {
                return Ok(Kind::Varying(Perspective::None));
            }
            match PERSPECTIVES.iter().find(|r| !r.name.is_empty() && r.name == rest) {
                Some(p) => Ok(Kind::Varying(p.value)),
                None => bad(name, rest, row.mnemonic, "`_perspective_z` or `_perspective_w`"),
            }
        }
        Model::Load(source) if rest.is_empty() => Ok(Kind::Load(source)),
        Model::Load(_) => bad(name, rest, name, ""),
        Model::Mul(op) => {
            let allowed = if op == names::SHIFTED_OP {
                modifier_names().mul
            } else {
                modifier_names().outmods
            };
            let mods = modifiers(rest, allowed, name.len(), name)?;
            let outmod = outmod_of(&mods);
            let shift = names::MUL_SHIFTS
                .iter()
                .find(|(_, t)| mods.contains(t))
                .map_or(0, |(s, _)| *s);
            Ok(if row.field == Some(Field::Vec4Mul) {
                Kind::VecMul(op, shift, outmod)
            } else {
                Kind::FloatMul(op, shift, outmod)
            })
        }
        Model::Acc(op) => {
            let mods = modifiers(rest, modifier_names().outmods, name.len(), name)?;
            let outmod = outmod_of(&mods);
            Ok(if row.field == Some(Field::Vec4Acc) {
                Kind::VecAcc(op, outmod)
            } else {
                Kind::FloatAcc(op, outmod)
            })
        }
        Model::AtanPt2 => {
            let mods = modifiers(rest, modifier_names().outmods, name.len(), name)?;
            Ok(Kind::AtanPt2(outmod_of(&mods)))
        }
        Model::CombineMul => {
            modifiers(rest, &[], name.len(), row.mnemonic)?;
            Ok(Kind::CombineMul)
        }
        Model::Combine(op) => combine_scalar(op, name, rest),
        // The forms without modifiers name nothing with one.
        _ if !rest.is_empty() => Err(KindError::Unknown),
        Model::Stop => Ok(Kind::Stop),
        Model::Sync => Ok(Kind::Sync),
        Model::Nop => Ok(Kind::Nop),
        Model::Store => Ok(Kind::Store),
        Model::FbRead(read) => Ok(Kind::FbRead(read)),
        Model::Discard => Ok(Kind::Discard),
        Model::Const => Ok(Kind::Const(usize::from(row.field == Some(Field::Const1)))),
    }
}

/// A scalar op of the complex unit with its modifiers `rest`: the output modifier and the
/// destination form asked for.
fn combine_scalar<'w>(op: CombineOp, name: &'static str, rest: &'w str) -> Result<Kind, KindError<'w>> {
    let mods = modifiers(rest, modifier_names().combine, name.len(), name)?;
    let vec = mods.contains(&names::COMBINE_VEC_DEST);
    let scalar = mods.contains(&names::COMBINE_SCALAR_DEST);
    let outmod = outmod_of(&mods);
    if vec && (scalar || outmod != OutMod::None) {
        let modifier = if scalar {
            names::COMBINE_SCALAR_DEST
        } else {
            outmod.info().name
        };
        return Err(KindError::BadModifier {
            base_len: name.len(),
            modifier,
            op: name,
            allowed: "an output modifier only with a scalar destination, and `_vec` or `_scalar`, not both".into(),
        });
    }
    let form = if vec {
        Some(true)
    } else if scalar {
        Some(false)
    } else {
        None
    };
    Ok(Kind::CombineScalar(op, outmod, form))
}

/// Splits `rest` (`_x2_sat`), which starts `base_len` bytes into the word of `op`, into
/// modifiers of `allowed`, each at most once.
fn modifiers<'w>(
    rest: &'w str,
    allowed: &[&'static str],
    base_len: usize,
    op: &'static str,
) -> Result<Mods, KindError<'w>> {
    let mut found = Mods::default();
    let mut left = rest;
    while !left.is_empty() {
        let hit = allowed
            .iter()
            .filter(|m| left.starts_with(**m) && (left.len() == m.len() || left[m.len()..].starts_with('_')))
            .max_by_key(|m| m.len());
        match hit {
            Some(m) if !found.contains(m) => {
                found.push(m);
                left = &left[m.len()..];
            }
            _ => {
                let end = left[1..].find('_').map_or(left.len(), |i| i + 1);
                let list = polyasm_core::text::list_alternatives(allowed.iter().map(|m| format!("`{m}`")).collect());
                let list = if allowed.is_empty() {
                    String::new()
                } else {
                    format!("{list}, each at most once")
                };
                return Err(KindError::BadModifier {
                    base_len,
                    modifier: &left[..end],
                    op,
                    allowed: list.into(),
                });
            }
        }
    }
    // Two output modifiers, or two shifts, are one too many.
    let is_outmod = |m: &&str| OUTMODS.iter().any(|r| r.name == *m);
    let is_shift = |m: &&str| names::MUL_SHIFTS.iter().any(|(_, t)| t == m);
    for (what, is) in [
        ("output modifier", &is_outmod as &dyn Fn(&&str) -> bool),
        ("shift", &is_shift),
    ] {
        if found.iter().filter(|m| is(m)).count() > 1 {
            return Err(KindError::Conflict {
                base_len,
                op,
                what,
                found: found.iter().copied().filter(|m| is(m)).collect(),
            });
        }
    }
    Ok(found)
}

/// The most modifiers one opcode takes: each of its allowed ones at most once.
pub(super) const MAX_MODIFIERS: usize = 16;

/// The modifiers read from an opcode word, in order, without allocating.
#[derive(Clone, Copy, Default)]
pub(super) struct Mods {
    names: [&'static str; MAX_MODIFIERS],
    len: usize,
}

impl Mods {
    pub(super) fn push(&mut self, name: &'static str) {
        self.names[self.len] = name;
        self.len += 1;
    }
}

impl std::ops::Deref for Mods {
    type Target = [&'static str];

    fn deref(&self) -> &[&'static str] {
        &self.names[..self.len]
    }
}

/// The modifiers each kind of opcode takes, from the table, built once.
pub(super) struct ModifierNames {
    /// The output modifiers.
    outmods: &'static [&'static str],
    /// `mul` of the multipliers: the output modifiers and the shifts.
    mul: &'static [&'static str],
    /// The scalar ops of `.s2`: the output modifiers and the destination forms.
    combine: &'static [&'static str],
}

pub(super) fn modifier_names() -> &'static ModifierNames {
    static NAMES: std::sync::OnceLock<ModifierNames> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let outmods: Vec<&'static str> = OUTMODS.iter().filter(|r| !r.name.is_empty()).map(|r| r.name).collect();
        let mut mul = outmods.clone();
        mul.extend(names::MUL_SHIFTS.iter().map(|(_, t)| *t));
        let mut combine = outmods.clone();
        combine.extend([names::COMBINE_VEC_DEST, names::COMBINE_SCALAR_DEST]);
        // Each is read at most once, so a list this long fits in a `Mods`.
        assert!(
            mul.len().max(combine.len()) <= MAX_MODIFIERS,
            "invariant: modifier lists fit"
        );
        ModifierNames {
            outmods: outmods.leak(),
            mul: mul.leak(),
            combine: combine.leak(),
        }
    })
}

/// `Some(rest)` when `word` is `base` followed by nothing or by `_` modifiers.
pub(super) fn split<'w>(word: &'w str, base: &str) -> Option<&'w str> {
    word.strip_prefix(base)
        .filter(|rest| rest.is_empty() || rest.starts_with('_'))
}

pub(super) fn outmod_of(mods: &[&str]) -> OutMod {
    OUTMODS
        .iter()
        .find(|r| !r.name.is_empty() && mods.contains(&r.name))
        .map_or(OutMod::None, |r| r.value)
}

/// Every opcode with the unit it is written with (`""` for none), in the order "did you mean"
/// has always offered them: the unit-less forms (control bits, texld, branch, discard, the
/// constants), the other forms of one unit that is not an ALU's, the framebuffer reads, the
/// loads, then the ALU ops unit by unit.
pub(super) fn all_forms() -> &'static [(&'static str, &'static str)] {
    static FORMS_BY_RANK: std::sync::OnceLock<Vec<(&'static str, &'static str)>> = std::sync::OnceLock::new();
    FORMS_BY_RANK.get_or_init(|| {
        let rank = |row: &FormInfo| match row.model {
            Model::Stop | Model::Sync | Model::Nop => 0,
            Model::Texld => 1,
            Model::Branch => 2,
            Model::Discard => 3,
            Model::Const => 4,
            Model::Varying => 5,
            Model::Store => 6,
            Model::CombineMul | Model::AtanPt2 => 7,
            Model::FbRead(_) => 8,
            Model::Load(_) => 9,
            Model::Mul(_) | Model::Acc(_) | Model::Combine(_) => 10,
        };
        let mut rows: Vec<&FormInfo> = FORMS.iter().collect();
        rows.sort_by_key(|row| rank(row));
        rows.iter().map(|row| (row.name(), row.unit())).collect()
    })
}
