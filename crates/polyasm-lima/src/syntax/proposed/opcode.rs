//! Opcode words of the proposed syntax in the encoder: the diagnostics of a word that does
//! not read as an [`Operation`], and the suggestions for unknown ones.

use super::instruction::opcode_span;
use super::*;

/// The opcode, with its unit, nearest to `word`, while `budget` lasts.
pub(super) fn opcode_suggestion(budget: &mut SuggestionBudget, word: &str, unit: Option<&str>) -> Option<String> {
    let forms = all_forms();
    let suggestion = budget.suggest(word, forms.iter().map(|(n, _)| *n))?;
    let unit = forms
        .iter()
        .find(|(n, u)| *n == suggestion && Some(*u) == unit)
        .or_else(|| forms.iter().find(|(n, _)| *n == suggestion))
        .map_or("", |(_, u)| *u);
    Some(format!("{suggestion}{unit}"))
}

impl<'s> Encoder<'s> {
    /// Reads the opcode, unit and modifiers of an operation (the parsing stage has read those
    /// that draw no diagnostic).
    pub(super) fn kind(&mut self, op: &Op) -> Option<Operation> {
        if op.kind.is_some() {
            return op.kind;
        }
        let text = self.str(op.name);
        let unit = op.unit.map(|u| self.str(u));
        let word = current_name(text, |old, new| {
            let span = TextRange::new(op.name.start as usize, op.name.start as usize + old.len());
            self.push(error::old_name(self.span(span), old, new));
        });
        let mods_at = |base_len: usize| TextRange::new(op.name.start as usize + base_len, op.name.end as usize);
        match kind_of(&word, unit) {
            Ok(kind) => Some(kind),
            Err(KindError::Unknown) => {
                self.unknown_opcode(op, &word, unit);
                None
            }
            Err(KindError::BadModifier {
                base_len,
                modifier,
                op,
                allowed,
            }) => self.bad_modifier(mods_at(base_len), modifier, op, &allowed),
            Err(KindError::Conflict {
                base_len,
                op,
                what,
                found,
            }) => self.reject(error::modifier_conflict(self.span(mods_at(base_len)), op, what, &found)),
        }
    }

    pub(super) fn bad_modifier<T>(&mut self, span: TextRange, modifier: &str, op: &str, allowed: &str) -> Option<T> {
        self.reject(error::bad_modifier(self.span(span), modifier, op, allowed))
    }

    /// PP002 or PP003 for an opcode `kind_of` does not know.
    pub(super) fn unknown_opcode(&mut self, op: &Op, word: &str, unit: Option<&str>) {
        let forms = all_forms();
        let base = forms
            .iter()
            .filter(|(name, _)| split(word, name).is_some())
            .max_by_key(|(name, _)| name.len())
            .map(|(name, _)| *name);
        let span = self.span(opcode_span(op));
        match base {
            Some(base) => {
                let written: Vec<String> = forms
                    .iter()
                    .filter(|(n, _)| *n == base)
                    .map(|(n, u)| format!("`{n}{u}`"))
                    .collect();
                self.push(error::wrong_unit(
                    span,
                    base,
                    unit,
                    &polyasm_core::text::list_alternatives(written),
                ));
            }
            None => {
                let suggestion = opcode_suggestion(&mut self.budget, word, unit);
                let start = span.start;
                self.diagnostics
                    .push_error_with(Some(start), || error::unknown_opcode(span, word, suggestion.as_deref()));
            }
        }
    }
}
