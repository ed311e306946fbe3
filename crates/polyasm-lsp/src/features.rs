//! What the server answers about a place in a document, from the target's instruction table
//! ([`Target::instructions`]): hover text for a mnemonic, and the mnemonics as completions.

use lsp_types::{CompletionItem, CompletionItemKind, Hover, HoverContents, MarkupContent, MarkupKind, Position};
use polyasm_core::Target;
use polyasm_core::table::Entry;

use crate::document::Document;

/// Characters of a word: a mnemonic with its unit suffixes and modifiers (`max_pos.v1`).
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// The word at `position` and its byte range, if there is one.
fn word_at(doc: &Document, position: Position) -> Option<(&str, std::ops::Range<usize>)> {
    let offset = doc.lines.offset(&doc.text, position);
    let start = doc.text[..offset].rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    let end = doc.text[offset..]
        .find(|c: char| !is_word(c))
        .map_or(doc.text.len(), |i| offset + i);
    (start < end).then(|| (&doc.text[start..end], start..end))
}

/// The row a word names: by one of its names, or, with modifiers glued on with `_` before a
/// unit (`max_pos.v1`, `branch_lt`), by the name without them.
fn entry_of<'e>(entries: &'e [Entry], word: &str) -> Option<&'e Entry> {
    let find = |w: &str| entries.iter().find(|e| e.is_named(w));
    find(word).or_else(|| {
        let (name, unit) = word.split_at(word.find('.').unwrap_or(word.len()));
        let base = name.split('_').next()?;
        find(&format!("{base}{unit}"))
    })
}

/// The hover of the mnemonic at `position`: its row of the table.
pub fn hover(target: &dyn Target, doc: &Document, position: Position) -> Option<Hover> {
    let (word, range) = word_at(doc, position)?;
    let entries = target.instructions();
    let entry = entry_of(&entries, word)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: entry.to_markdown(),
        }),
        range: Some(doc.lines.range(&doc.text, range)),
    })
}

/// Every mnemonic of the target (and its names in a second syntax), with its doc line; the
/// editor filters them by what is typed.
pub fn completions(target: &dyn Target, _doc: &Document, _position: Position) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    for entry in target.instructions() {
        let names = std::iter::once(entry.mnemonic).chain(entry.second.filter(|s| *s != entry.mnemonic));
        for name in names {
            items.push(CompletionItem {
                label: name.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(entry.doc.to_string()),
                ..CompletionItem::default()
            });
        }
    }
    items
}
