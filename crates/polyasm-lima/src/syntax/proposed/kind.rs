//! An operation of the proposed syntax read from its opcode word and unit alone: its
//! [`Operation`], the modifiers, the older names, and the diagnostic a word draws, as data. The
//! parsing stage reads every word here; the encoder reports what does not read.

use std::borrow::Cow;

use crate::ops::proposed::{self as names};
use crate::ops::{BRANCH_CONDS, FORMS, Form, FormInfo, Model, OUTMODS, OutMod, PERSPECTIVES};
use crate::syntax::operation::Operation;

/// `word` with an older name of an opcode at its start replaced by the current one (the
/// aliases of [`FORMS`]); `replaced` sees each older name replaced.
pub(super) fn current_name<'w>(word: &'w str, mut replaced: impl FnMut(&'static str, &'static str)) -> Cow<'w, str> {
    let mut word = Cow::Borrowed(word);
    for &(old, new) in names::old_opcodes() {
        if let Some(rest) = split(&word, old) {
            replaced(old, new);
            word = Cow::Owned(format!("{new}{rest}"));
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
        allowed: Cow<'static, str>,
    },
    /// Two modifiers of one sort (`what`: output modifiers, shifts).
    Conflict {
        base_len: usize,
        op: &'static str,
        what: &'static str,
        found: Vec<&'static str>,
    },
}

impl<'w> KindError<'w> {
    /// [`KindError::BadModifier`].
    fn bad(base_len: usize, modifier: &'w str, op: &'static str, allowed: impl Into<Cow<'static, str>>) -> Self {
        KindError::BadModifier {
            base_len,
            modifier,
            op,
            allowed: allowed.into(),
        }
    }
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
pub(super) fn kind_of<'w>(word: &'w str, unit: Option<&str>) -> Result<Operation, KindError<'w>> {
    let (row, rest) = row_of(word, unit).ok_or(KindError::Unknown)?;
    let name = row.name();
    let bad = |op, allowed: &'static str| Err(KindError::bad(name.len(), rest, op, allowed));
    let mut operation = Operation::new(row.op);
    match row.model {
        Model::Texld => match rest {
            "" => {}
            names::TEXLD_LOD => operation.explicit_lod = true,
            _ => return bad(name, "`_lod`"),
        },
        Model::Branch if rest.is_empty() => {}
        Model::Branch => {
            let cond = rest
                .strip_prefix(names::COND_PREFIX)
                .and_then(|c| BRANCH_CONDS.iter().find(|r| !r.name.is_empty() && r.name == c));
            match cond {
                Some(row) => operation.cond = row.value,
                None => return bad(name, "a condition: `_lt`, `_eq`, `_le`, `_gt`, `_ne`, `_ge` or `_nv`"),
            }
        }
        Model::Varying if rest.is_empty() => {}
        Model::Varying => match PERSPECTIVES.iter().find(|r| !r.name.is_empty() && r.name == rest) {
            Some(p) => operation.perspective = p.value,
            None => return bad(row.mnemonic, "`_perspective_z` or `_perspective_w`"),
        },
        Model::Load(_) if rest.is_empty() => {}
        Model::Load(_) => return bad(name, ""),
        Model::Mul(op) => {
            let shifts = names::MUL_SHIFTS.iter().filter(|_| op == names::SHIFTED_OP);
            let mods = modifiers(rest, &with_outmods(shifts.map(|(_, t)| *t)), name.len(), name)?;
            operation.outmod = outmod_of(&mods);
            operation.shift = names::MUL_SHIFTS
                .iter()
                .find(|(_, t)| mods.contains(t))
                .map_or(0, |(s, _)| *s);
        }
        Model::Acc(_) | Model::AtanPt2 => {
            let mods = modifiers(rest, &with_outmods([]), name.len(), name)?;
            operation.outmod = outmod_of(&mods);
        }
        Model::CombineMul => {
            modifiers(rest, &[], name.len(), row.mnemonic)?;
        }
        Model::Combine(_) => combine_scalar(&mut operation, name, rest)?,
        // The forms without modifiers name nothing with one.
        _ if !rest.is_empty() => return Err(KindError::Unknown),
        Model::Stop | Model::Sync | Model::Nop | Model::Store | Model::FbRead(_) | Model::Discard | Model::Const => {}
    }
    Ok(operation)
}

/// The modifiers `rest` of a scalar op of the complex unit into `operation`: the output
/// modifier and the destination form asked for.
fn combine_scalar<'w>(operation: &mut Operation, name: &'static str, rest: &'w str) -> Result<(), KindError<'w>> {
    let dest_forms = [names::COMBINE_VEC_DEST, names::COMBINE_SCALAR_DEST];
    let mods = modifiers(rest, &with_outmods(dest_forms), name.len(), name)?;
    let vec = mods.contains(&names::COMBINE_VEC_DEST);
    let scalar = mods.contains(&names::COMBINE_SCALAR_DEST);
    let outmod = outmod_of(&mods);
    if vec && (scalar || outmod != OutMod::None) {
        let modifier = if scalar {
            names::COMBINE_SCALAR_DEST
        } else {
            outmod.info().name
        };
        let allowed = "an output modifier only with a scalar destination, and `_vec` or `_scalar`, not both";
        return Err(KindError::bad(name.len(), modifier, name, allowed));
    }
    operation.outmod = outmod;
    operation.vec_dest = (vec || scalar).then_some(vec);
    Ok(())
}

/// Splits `rest` (`_x2_sat`), which starts `base_len` bytes into the word of `op`, into
/// modifiers of `allowed`, each at most once.
fn modifiers<'w>(
    rest: &'w str,
    allowed: &[&'static str],
    base_len: usize,
    op: &'static str,
) -> Result<Vec<&'static str>, KindError<'w>> {
    let mut found = Vec::new();
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
                return Err(KindError::bad(base_len, &left[..end], op, list));
            }
        }
    }
    // Two output modifiers, or two shifts, are one too many.
    let is_outmod: fn(&&str) -> bool = |m| OUTMODS.iter().any(|r| r.name == *m);
    let is_shift: fn(&&str) -> bool = |m| names::MUL_SHIFTS.iter().any(|(_, t)| t == m);
    for (what, is) in [("output modifier", is_outmod), ("shift", is_shift)] {
        let of_sort = found.iter().copied().filter(is);
        if of_sort.clone().count() > 1 {
            return Err(KindError::Conflict {
                base_len,
                op,
                what,
                found: of_sort.collect(),
            });
        }
    }
    Ok(found)
}

/// The names of the output modifiers, then `more`: the modifiers an op takes.
fn with_outmods(more: impl IntoIterator<Item = &'static str>) -> Vec<&'static str> {
    let outmods = OUTMODS.iter().filter(|r| !r.name.is_empty()).map(|r| r.name);
    outmods.chain(more).collect()
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
