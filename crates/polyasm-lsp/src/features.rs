//! What the server answers about a place in a document: from the target's instruction table
//! ([`Target::instructions`]), hover text for a mnemonic and the mnemonics as completions; from
//! the names the document declares (labels, nv2a uniforms: the object's symbols), hover text,
//! the declaration a name goes to, and the document's symbols; from a diagnostic's fix, a quick
//! fix.

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CompletionItem, CompletionItemKind, DocumentChanges, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, OneOf, OptionalVersionedTextDocumentIdentifier, Position,
    Range, SymbolInformation, SymbolKind, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use polyasm_core::Target;
use polyasm_core::table::Entry;

use crate::check::Declared;
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

/// The hover at `position`: for a name the document declares, what it is and where; for a
/// mnemonic, its row of the table.
pub fn hover(target: &dyn Target, doc: &Document, declared: &[Declared], position: Position) -> Option<Hover> {
    let (word, range) = word_at(doc, position)?;
    let value = match declared_as(declared, word) {
        None if word.starts_with(|c: char| c.is_ascii_digit()) => number(word)?,
        Some(d) => format!(
            "{} `{}` = {} ({:#x}), declared on line {}",
            d.kind,
            d.name,
            d.value,
            d.value,
            d.range.start.line + 1
        ),
        None => entry_of(&target.instructions(), word)?.to_markdown(),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(doc.lines.range(&doc.text, range)),
    })
}

/// A number's value in decimal, hex and binary (a whole number), or as the nearest f32 (a
/// decimal fraction); `None` for a word that is not a number.
fn number(word: &str) -> Option<String> {
    if let Ok(n) = polyasm_core::number::parse_int_literal(word) {
        return Some(format!("`{word}` = {n} = {n:#x} = {n:#b}"));
    }
    let value = polyasm_core::number::parse_f32(word).ok()?;
    Some(format!("`{word}` = {value:?} as f32 (bits {:#010x})", value.to_bits()))
}

/// Where the name at `position` is declared, if the document declares it.
pub fn declaration(doc: &Document, declared: &[Declared], position: Position) -> Option<Range> {
    let (word, _) = word_at(doc, position)?;
    declared_as(declared, word).map(|d| d.range)
}

/// The declared name a word is, its sigil left out (`tint` is nv2a's `#tint`).
fn declared_as<'d>(declared: &'d [Declared], word: &str) -> Option<&'d Declared> {
    declared
        .iter()
        .find(|d| d.name.trim_start_matches(|c| !is_word(c)) == word)
}

/// The names the document declares, as the editor's outline.
pub fn symbols(uri: &Uri, declared: &[Declared]) -> Vec<SymbolInformation> {
    declared
        .iter()
        .map(|d| {
            // `deprecated` is a field of the protocol's type, which must be given.
            #[allow(deprecated)]
            SymbolInformation {
                name: d.name.clone(),
                kind: if d.kind == "label" {
                    SymbolKind::KEY
                } else {
                    SymbolKind::VARIABLE
                },
                tags: None,
                deprecated: None,
                location: Location::new(uri.clone(), d.range),
                container_name: Some(d.kind.to_string()),
            }
        })
        .collect()
}

/// Every mnemonic of the target (and its names in a second syntax), with its doc line, then
/// the names the document declares (labels, uniforms), with what each is; the editor filters
/// them by what is typed.
pub fn completions(target: &dyn Target, declared: &[Declared]) -> Vec<CompletionItem> {
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
    for d in declared {
        items.push(CompletionItem {
            label: d.name.clone(),
            kind: Some(match d.kind {
                "label" => CompletionItemKind::REFERENCE,
                _ => CompletionItemKind::VARIABLE,
            }),
            detail: Some(format!("{} = {}", d.kind, d.value)),
            ..CompletionItem::default()
        });
    }
    items
}

/// The quick fixes of the diagnostics a code action request names: each diagnostic's fix
/// (carried in its `data`) as an edit.
pub fn quick_fixes(diagnostics: &[lsp_types::Diagnostic]) -> Vec<CodeActionOrCommand> {
    diagnostics
        .iter()
        .filter_map(|d| {
            let fix = d.data.as_ref()?.get("fix")?;
            let uri: Uri = serde_json::from_value(fix["uri"].clone()).ok()?;
            let edit = TextEdit {
                range: serde_json::from_value(fix["range"].clone()).ok()?,
                new_text: fix["newText"].as_str()?.to_string(),
            };
            let title = format!("Replace with `{}`", edit.new_text);
            let changes = DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                edits: vec![OneOf::Left(edit)],
            }]);
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    document_changes: Some(changes),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}
