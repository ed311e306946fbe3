//! What the server answers about a place in a document. It reads three things of the target,
//! none of them written here: its instruction table ([`Target::instructions`]) for mnemonics,
//! its [`Lexicon`] for registers, comments and includes, and the [`Index`] of the names the
//! document defines, which the dialect recorded while assembling.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CompletionItem, CompletionItemKind, CompletionTextEdit,
    DocumentChanges, FoldingRange, FoldingRangeKind, Hover, HoverContents, Location, MarkupContent, MarkupKind, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, SemanticToken, SemanticTokenModifier, SemanticTokenType,
    SemanticTokensLegend, SymbolInformation, SymbolKind, TextDocumentEdit, TextDocumentPositionParams, TextEdit, Uri,
    WorkspaceEdit,
};
use polyasm_core::Target;
use polyasm_core::editor::{Lexicon, Mnemonics, TokenKind, tokens, tokens_in, without_modifiers};
use polyasm_core::table::Entry;

use crate::document::Document;
use crate::index::{Def, Index};

/// The word at `position` as the target's lexicon reads its line (a name with its sigil, a
/// mnemonic with its modifiers, a number), and its byte range; none in a comment or string.
fn word_at<'d>(lexicon: &Lexicon, doc: &'d Document, position: Position) -> Option<(&'d str, std::ops::Range<usize>)> {
    let text = &doc.text;
    let offset = doc.lines.offset(text, position);
    let start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let end = text[offset..].find(['\n', '\r']).map_or(text.len(), |i| offset + i);
    let token = tokens(lexicon, &Mnemonics::default(), &text[start..end])
        .into_iter()
        .find(|t| t.range.start + start <= offset && offset <= t.range.end + start)?;
    if matches!(token.kind, TokenKind::Comment | TokenKind::String | TokenKind::Operator) {
        return None;
    }
    let range = token.range.start + start..token.range.end + start;
    Some((&text[range.clone()], range))
}

/// The row a word names: by one of its names, or, with modifiers glued on with `_` before a
/// unit (`max_pos.v1`, `branch_lt`), by the name without them.
fn entry_of<'e>(entries: &'e [Entry], lexicon: &Lexicon, word: &str) -> Option<&'e Entry> {
    let find = |w: &str| entries.iter().find(|e| e.is_named(w));
    let glued = || without_modifiers(word).filter(|_| !lexicon.modifiers.is_empty());
    find(word).or_else(|| find(&glued()?))
}

/// The name of the file at `uri`, as its path writes it (`x y.mx`, not `x%20y.mx`).
fn file_name(uri: &Uri) -> String {
    let path = crate::uri::to_path(uri.as_str());
    let name = path.as_deref().and_then(std::path::Path::file_name);
    name.map_or_else(
        || uri.as_str().rsplit('/').next().unwrap_or_default().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What a hover says of a defined name: what it is, what it stands for, where it is defined.
fn describe(def: &Def, here: &Uri) -> String {
    let mut out = format!("{} `{}`", def.kind, def.name);
    if !def.detail.is_empty() {
        out.push_str(&format!(": {}", def.detail));
    }
    match &def.location {
        Some(at) if at.uri == *here => out.push_str(&format!("\n\ndefined on line {}", at.range.start.line + 1)),
        Some(at) => {
            let file = file_name(&at.uri);
            out.push_str(&format!("\n\ndefined in `{file}`, line {}", at.range.start.line + 1));
        }
        None => out.push_str("\n\ndefined in a library built into polyasm"),
    }
    out
}

/// The hover at `position`: for a name the document defines or uses, what it is and where;
/// for a register, what it holds; for a number, its value; for a mnemonic, its row of the
/// table.
pub fn hover(target: &dyn Target, doc: &Document, index: &Index, uri: &Uri, position: Position) -> Option<Hover> {
    let markdown = |value: String, range: Range| Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(range),
    };
    if let Some((def, place)) = index.at(uri, position) {
        return Some(markdown(describe(&index.defs[def], uri), place.range));
    }
    let lexicon = target.lexicon();
    let (word, bytes) = word_at(lexicon, doc, position)?;
    let range = doc.lines.range(&doc.text, bytes);
    let value = if let Some(register) = lexicon.register(word) {
        let access = match (register.read, register.write) {
            (true, true) => "read and written",
            (true, false) => "read only",
            (false, _) => "written only",
        };
        format!("register `{}`: {}\n\n({access})", register.written(), register.doc)
    } else if word.starts_with(|c: char| c.is_ascii_digit()) {
        number(word, lexicon.half_floats)?
    } else {
        entry_of(&target.instructions(), lexicon, word)?.to_markdown()
    };
    Some(markdown(value, range))
}

/// A number's value in decimal, hex and binary (a whole number), or as the nearest f32 (a
/// decimal fraction) and, for a machine that stores half floats, the nearest of those; `None`
/// for a word that is not a number.
fn number(word: &str, half_floats: bool) -> Option<String> {
    if let Ok(n) = polyasm_core::number::parse_int_literal(word) {
        return Some(format!("`{word}` = {n} = {n:#x} = {n:#b}"));
    }
    let value = polyasm_core::number::parse_f32(word).ok()?;
    let mut out = format!("`{word}` = {value:?} as f32 (bits {:#010x})", value.to_bits());
    if half_floats && value.is_finite() {
        let half = polyasm_core::half::nearest(f64::from(value));
        let stored = polyasm_core::half::to_f32(half);
        out.push_str(&format!("\n\nstored as fp16: {stored:?} (bits {half:#06x})"));
    }
    Some(out)
}

/// Where the name at `position` is defined.
pub fn declaration(index: &Index, uri: &Uri, position: Position) -> Option<Location> {
    let (def, _) = index.at(uri, position)?;
    index.defs[def].location.clone()
}

/// Every place the name at `position` is written, in `index` and in the indexes of the other
/// open documents (a file included by several): its definition among them when `declaration`.
pub fn references<'i>(
    index: &Index,
    others: impl Iterator<Item = &'i Index>,
    uri: &Uri,
    position: Position,
    declaration: bool,
) -> Vec<Location> {
    let Some((def, _)) = index.at(uri, position) else {
        return Vec::new();
    };
    let mut found: Vec<Location> = index.places_of(def).cloned().collect();
    let def = &index.defs[def];
    if let Some(at) = &def.location {
        for other in others {
            if let Some(d) = other.def_at(at) {
                found.extend(other.places_of(d).cloned());
            }
        }
    }
    found.sort_by(|a, b| (a.uri.as_str(), a.range.start).cmp(&(b.uri.as_str(), b.range.start)));
    found.dedup();
    if !declaration {
        found.retain(|place| Some(place) != def.location.as_ref());
    }
    found
}

/// The range of the name at `position` a rename would change, or why it cannot be renamed.
pub fn prepare_rename(index: &Index, uri: &Uri, position: Position) -> Result<Range, &'static str> {
    let (def, place) = index.at(uri, position).ok_or("no name the program defines is here")?;
    match index.defs[def].location {
        Some(_) => Ok(place.range),
        None => Err("the name is defined in a library built into polyasm"),
    }
}

/// The longest name a rename writes.
const MAX_NAME: usize = 1024;

/// The edits that rename the name at `position` to `new_name` everywhere it is written, or why
/// not: the new name must be a name of the dialect (with the old one's sigil, which is added
/// when left out), neither a mnemonic nor a register nor a name defined already, and no line
/// with an error may mention the old name (`error_mentions`), since the uses there may not
/// have been found. A rename across files is refused while one of them holds changes not
/// saved (`unsaved`): included files are read from disk, so their places may be elsewhere in
/// the editor's text.
pub fn rename<'i>(
    target: &dyn Target,
    index: &Index,
    others: impl Iterator<Item = &'i Index>,
    at: &TextDocumentPositionParams,
    new_name: &str,
    error_mentions: impl Fn(&str) -> bool,
    unsaved: impl Fn(&Uri) -> bool,
) -> Result<WorkspaceEdit, String> {
    let (uri, position) = (&at.text_document.uri, at.position);
    prepare_rename(index, uri, position)?;
    let (def, _) = index.at(uri, position).expect("prepare_rename found it");
    let old = index.defs[def].written();
    let lexicon = target.lexicon();
    let sigil: String = old.chars().take_while(|&c| lexicon.sigils.contains(c)).collect();
    let new_name = if new_name.starts_with(&sigil) {
        new_name.to_string()
    } else {
        format!("{sigil}{new_name}")
    };
    let mut chars = new_name[sigil.len()..].chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid || new_name.len() > MAX_NAME {
        let shown: String = new_name.chars().take(40).collect();
        return Err(format!(
            "`{shown}` is not a name: a letter or `_`, then letters, digits and `_`, at most {MAX_NAME} in all"
        ));
    }
    if new_name == old {
        return Ok(WorkspaceEdit::default());
    }
    // The names of this document and the files it includes.
    let taken = index
        .defs
        .iter()
        .find(|d| d.written() == new_name || d.name == new_name);
    if let Some(taken) = taken {
        return Err(format!(
            "`{new_name}` is defined already: {} `{}`",
            taken.kind, taken.name
        ));
    }
    if error_mentions(old) {
        return Err(format!(
            "a line with an error mentions `{old}`: fix it first, as the uses on it may not be found"
        ));
    }
    let own_word = lexicon.is_mnemonic(&mnemonics(target), &new_name) || lexicon.is_reserved(&new_name);
    if own_word || lexicon.register(&new_name).is_some() {
        return Err(format!("`{new_name}` is a mnemonic, a directive or a register"));
    }
    let places = references(index, others, uri, position, true);
    if places.iter().any(|p| p.uri != *uri)
        && let Some(file) = places.iter().find(|p| unsaved(&p.uri))
    {
        let name = file_name(&file.uri);
        return Err(format!(
            "`{name}` has changes not saved: save it first, as included files are read from disk"
        ));
    }
    // The edits of each file, by its URI's text.
    let mut edits: std::collections::BTreeMap<String, (Uri, Vec<TextEdit>)> = Default::default();
    for place in places {
        let file = edits
            .entry(place.uri.as_str().to_string())
            .or_insert_with(|| (place.uri.clone(), Vec::new()));
        file.1.push(TextEdit {
            range: place.range,
            new_text: new_name.clone(),
        });
    }
    Ok(WorkspaceEdit {
        changes: Some(edits.into_values().collect()),
        ..WorkspaceEdit::default()
    })
}

/// The names the document defines, as the editor's outline.
pub fn symbols(uri: &Uri, index: &Index) -> Vec<SymbolInformation> {
    index
        .defs
        .iter()
        .filter_map(|d| {
            let location = d.location.clone().filter(|at| at.uri == *uri)?;
            // `deprecated` is a field of the protocol's type, which must be given.
            #[allow(deprecated)]
            Some(SymbolInformation {
                name: d.name.clone(),
                kind: match d.kind {
                    "label" => SymbolKind::KEY,
                    "macro" => SymbolKind::FUNCTION,
                    "constant" => SymbolKind::CONSTANT,
                    "namespace" => SymbolKind::NAMESPACE,
                    _ => SymbolKind::VARIABLE,
                },
                tags: None,
                deprecated: None,
                location,
                container_name: Some(d.kind.to_string()),
            })
        })
        .collect()
}

/// The most entries of folders an include path completion lists.
const MAX_PATHS: usize = 500;

/// What may be written at `position`: inside an include's quotes, the files it may name;
/// elsewhere every mnemonic (with its names in a second syntax), the registers (in a dialect
/// that writes the destination first, those that may be written at the first operand and
/// those that may be read after it), and the names
/// the document defines. The editor filters them by what is typed.
pub fn completions(
    target: &dyn Target,
    doc: &Document,
    index: &Index,
    path: Option<&Path>,
    include_dirs: &[PathBuf],
    position: Position,
) -> Vec<CompletionItem> {
    let lexicon = target.lexicon();
    let offset = doc.lines.offset(&doc.text, position);
    // The cursor where it is in the text (a position past a line's end is at its end).
    let position = doc.lines.position(&doc.text, offset);
    let line_start = doc.text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let before = &doc.text[line_start..offset];
    if let Some(items) = include_paths(lexicon, before, path, include_dirs, position) {
        return items;
    }
    let in_string = tokens(lexicon, &Mnemonics::default(), before).last().is_some_and(|t| {
        t.kind == TokenKind::String && t.range.end == before.len() && !closed(&before[t.range.clone()])
    });
    if in_string {
        return Vec::new();
    }
    let mut items = Vec::new();
    // The operation being written: after the last separator of operations, if the dialect
    // has one.
    let operation = match lexicon.operation_separator {
        Some(separator) => before.rsplit(separator).next().unwrap_or(before),
        None => before,
    };
    let first_word = !operation.trim_start().contains(|c: char| c.is_whitespace() || c == ',');
    let mnemonic_rank = if first_word { "0" } else { "2" };
    for entry in target.instructions() {
        let names = std::iter::once(entry.mnemonic).chain(entry.second.filter(|s| *s != entry.mnemonic));
        for name in names {
            items.push(CompletionItem {
                label: name.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                detail: Some(entry.doc.to_string()),
                sort_text: Some(format!("{mnemonic_rank}{name}")),
                ..CompletionItem::default()
            });
        }
    }
    let typed_from = before
        .rfind(|c: char| !lexicon.is_word_char(c))
        .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
    items.extend(glued_forms(target, &before[typed_from..]));
    if !first_word {
        let operands = operation
            .trim_start()
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .count();
        let typing = !operation.ends_with([' ', '\t', ',']);
        let destination = operands - usize::from(typing) == 1;
        for register in lexicon.registers {
            let fits = match lexicon.destination_first {
                true if destination => register.write,
                true => register.read,
                false => true,
            };
            if !fits {
                continue;
            }
            for name in register.every_name() {
                items.push(CompletionItem {
                    sort_text: Some(format!("1{name}")),
                    label: name,
                    kind: Some(CompletionItemKind::VARIABLE),
                    detail: Some(register.doc.to_string()),
                    ..CompletionItem::default()
                });
            }
        }
    }
    for d in &index.defs {
        items.push(CompletionItem {
            label: d.name.clone(),
            kind: Some(match d.kind {
                "label" => CompletionItemKind::REFERENCE,
                "macro" => CompletionItemKind::FUNCTION,
                "constant" => CompletionItemKind::CONSTANT,
                "namespace" => CompletionItemKind::MODULE,
                _ => CompletionItemKind::VARIABLE,
            }),
            detail: Some(format!("{} {}", d.kind, d.detail)),
            sort_text: Some(format!("1{}", d.name)),
            ..CompletionItem::default()
        });
    }
    items
}

/// The instruction words that grow the word being typed: with a modifier before the unit
/// (Lima's `max_` offers `max_pos.v1`...), or, in a dialect that glues letters onto its
/// instructions (Masfix), with each letter that keeps it an instruction (`ld` offers `lda`,
/// `ldm`...).
fn glued_forms(target: &dyn Target, typed: &str) -> Vec<CompletionItem> {
    let lexicon = target.lexicon();
    let mut items = Vec::new();
    let item = |label: String, detail: &str| CompletionItem {
        sort_text: Some(format!("0{label}")),
        label,
        kind: Some(CompletionItemKind::KEYWORD),
        detail: Some(detail.to_string()),
        ..CompletionItem::default()
    };
    if let Some((base, _)) = typed.split_once('_')
        && !lexicon.modifiers.is_empty()
    {
        for entry in target.instructions() {
            let (stem, unit) = entry
                .mnemonic
                .split_once('.')
                .map_or((entry.mnemonic, None), |(s, u)| (s, Some(u)));
            if stem != base {
                continue;
            }
            for (modifier, doc) in lexicon.modifiers {
                let label = match unit {
                    Some(unit) => format!("{stem}{modifier}.{unit}"),
                    None => format!("{stem}{modifier}"),
                };
                items.push(item(label, doc));
            }
        }
    }
    if let Some(is_instruction) = lexicon.is_instruction
        && !typed.is_empty()
    {
        let letters = ('a'..='z').chain(lexicon.word_chars.chars());
        for letter in letters {
            let longer = format!("{typed}{letter}");
            if is_instruction(&longer) {
                items.push(item(longer, &format!("`{typed}` with `{letter}`")));
            }
        }
    }
    items
}

/// Whether a string or character token is closed (its last character is its quote, not
/// escaped).
fn closed(quoted: &str) -> bool {
    let quote = quoted.chars().next();
    quoted.len() >= 2 && quoted.chars().last() == quote && !quoted[..quoted.len() - 1].ends_with('\\')
}

/// The files an include being written on `before` (the line up to the cursor) may name: the
/// built-in ones and those in the including file's folder and the include folders, each
/// under the folder already typed; `None` when the cursor is not inside an include's quotes.
fn include_paths(
    lexicon: &Lexicon,
    before: &str,
    path: Option<&Path>,
    include_dirs: &[PathBuf],
    position: Position,
) -> Option<Vec<CompletionItem>> {
    let (directive, extension) = lexicon.include?;
    let rest = before.trim_start().strip_prefix(directive)?;
    let typed = rest.trim_start().strip_prefix('"')?;
    if typed.contains('"') {
        return None;
    }
    let (folder, _) = typed.rsplit_once('/').unwrap_or(("", typed));
    let folder_prefix = if folder.is_empty() {
        String::new()
    } else {
        format!("{folder}/")
    };
    let typed_units: u32 = typed[folder_prefix.len()..].chars().map(char::len_utf16).sum::<usize>() as u32;
    let start = position.character.saturating_sub(typed_units);
    let range = Range::new(Position::new(position.line, start), position);
    let mut names: Vec<(String, bool)> = Vec::new();
    for builtin in lexicon.builtin_includes {
        if let Some(rest) = builtin.strip_prefix(&folder_prefix) {
            match rest.split_once('/') {
                Some((dir, _)) => names.push((format!("{dir}/"), true)),
                None => names.push((rest.to_string(), false)),
            }
        }
    }
    let roots = path
        .and_then(Path::parent)
        .into_iter()
        .chain(include_dirs.iter().map(PathBuf::as_path));
    for root in roots {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
            continue;
        };
        for entry in entries.flatten().take(MAX_PATHS) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                names.push((format!("{name}/"), true));
            } else if let Some(stem) = name.strip_suffix(&format!(".{extension}")) {
                names.push((stem.to_string(), false));
            }
        }
    }
    names.sort();
    names.dedup();
    names.truncate(MAX_PATHS);
    Some(
        names
            .into_iter()
            .map(|(name, is_folder)| CompletionItem {
                label: name.clone(),
                kind: Some(if is_folder {
                    CompletionItemKind::FOLDER
                } else {
                    CompletionItemKind::FILE
                }),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text: name })),
                ..CompletionItem::default()
            })
            .collect(),
    )
}

/// The token types of semantic tokens, in the legend's order.
const TOKEN_TYPES: [SemanticTokenType; 10] = [
    SemanticTokenType::COMMENT,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::MACRO,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::PARAMETER,
];

/// What the server calls its semantic tokens: registers are variables of the default library.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_TYPES.to_vec(),
        token_modifiers: vec![SemanticTokenModifier::DEFAULT_LIBRARY],
    }
}

/// The names of `target`'s instructions, made once per target.
fn mnemonics(target: &dyn Target) -> std::sync::Arc<Mnemonics> {
    static MADE: std::sync::Mutex<Vec<(&'static str, std::sync::Arc<Mnemonics>)>> = std::sync::Mutex::new(Vec::new());
    let name = target.info().name;
    let mut made = MADE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, m)) = made.iter().find(|(n, _)| *n == name) {
        return m.clone();
    }
    let m = std::sync::Arc::new(Mnemonics::new(&target.instructions(), target.lexicon()));
    made.push((name, m.clone()));
    m
}

/// The legend's index of a token type.
fn token_type(kind: &SemanticTokenType) -> u32 {
    TOKEN_TYPES
        .iter()
        .position(|t| t == kind)
        .expect("invariant: the type is in the legend") as u32
}

/// The semantic tokens of a document: its words as the target's lexicon reads them, a name
/// coloured by what the index says it is (a label as a function, a macro or constant as a
/// macro, a uniform as a parameter, a namespace as a namespace). Each token lies on one line.
/// With `lines`, only the tokens on those lines (an editor asks for what it shows first).
pub fn semantic_tokens(
    target: &dyn Target,
    doc: &Document,
    index: &Index,
    uri: &Uri,
    lines: Option<std::ops::RangeInclusive<u32>>,
) -> Vec<SemanticToken> {
    let lexicon = target.lexicon();
    let mnemonics = mnemonics(target);
    // The kinds of the names written in this document, by where they start.
    let mut named: HashMap<Position, &'static str> = HashMap::new();
    for (place, def) in index.places.iter().filter(|(place, _)| place.uri == *uri) {
        named.insert(place.range.start, index.defs[*def].kind);
    }
    let text = &doc.text;
    let mut out = Vec::new();
    let mut last = Position::new(0, 0);
    // The words of some lines only: the text before them is passed over for where its comments
    // end, without looking its words up.
    let window = match &lines {
        Some(lines) => {
            let from = doc.lines.offset(text, Position::new(*lines.start(), 0));
            from..doc.lines.offset(text, Position::new(lines.end().saturating_add(1), 0))
        }
        None => 0..text.len(),
    };
    let words = tokens_in(lexicon, &mnemonics, text, window.clone());
    // From the first word, which may be a comment that began above the window.
    let from = words.first().map_or(window.start, |w| w.range.start.min(window.start));
    let mut cursor = Cursor {
        offset: from,
        position: doc.lines.position(text, from),
        after_cr: false,
    };
    for token in words {
        let (kind, modifiers) = match token.kind {
            TokenKind::Comment => (SemanticTokenType::COMMENT, 0),
            TokenKind::Register => (SemanticTokenType::VARIABLE, 1),
            TokenKind::Number => (SemanticTokenType::NUMBER, 0),
            TokenKind::String => (SemanticTokenType::STRING, 0),
            TokenKind::Operator => (SemanticTokenType::OPERATOR, 0),
            // A name the program defines is its kind even when it reads like a mnemonic
            // (Lima's label `stop_here`).
            TokenKind::Name | TokenKind::Mnemonic => {
                // A use such as Masfix's `%std:push` is recorded at its last part.
                let start = cursor.advance(text, token.range.start);
                let end = cursor.clone().advance(text, token.range.end);
                let kind = named
                    .get(&start)
                    .copied()
                    .or_else(|| (start.line == end.line).then(|| name_in(&named, start, end)).flatten());
                let kind = match kind {
                    Some("label") => SemanticTokenType::FUNCTION,
                    Some("macro" | "constant") => SemanticTokenType::MACRO,
                    Some("namespace") => SemanticTokenType::NAMESPACE,
                    Some(_) => SemanticTokenType::PARAMETER,
                    None if token.kind == TokenKind::Mnemonic => SemanticTokenType::KEYWORD,
                    None => SemanticTokenType::VARIABLE,
                };
                (kind, 0)
            }
        };
        // A token over several lines (a block comment) is one token a line.
        let mut start = token.range.start;
        for piece in text[token.range.clone()].split_inclusive(['\n', '\r']) {
            let trimmed = piece.trim_end_matches(['\n', '\r']);
            let at = cursor.advance(text, start);
            let length: usize = trimmed.chars().map(char::len_utf16).sum();
            start += piece.len();
            if length == 0 || lines.as_ref().is_some_and(|lines| !lines.contains(&at.line)) {
                continue;
            }
            let delta_line = at.line - last.line;
            let delta_start = if delta_line == 0 {
                at.character - last.character
            } else {
                at.character
            };
            out.push(SemanticToken {
                delta_line,
                delta_start,
                length: length as u32,
                token_type: token_type(&kind),
                token_modifiers_bitset: modifiers,
            });
            last = at;
        }
    }
    out
}

/// A place in a text that moves forward only, counting lines and UTF-16 code units as it goes,
/// so that the positions of all the words of a text cost one pass over it.
#[derive(Clone, Default)]
struct Cursor {
    offset: usize,
    position: Position,
    /// Whether the last character passed was a `\r` (a `\n` right after it ends no line).
    after_cr: bool,
}

impl Cursor {
    /// The position of byte `offset`, at or after the last one asked.
    fn advance(&mut self, text: &str, offset: usize) -> Position {
        for c in text[self.offset..offset].chars() {
            match c {
                '\n' if self.after_cr => {}
                '\n' | '\r' => self.position = Position::new(self.position.line + 1, 0),
                _ => self.position.character += c.len_utf16() as u32,
            }
            self.after_cr = c == '\r';
        }
        self.offset = offset;
        self.position
    }
}

/// The kind of a name recorded inside a word from `start` to `end` on one line.
fn name_in(named: &HashMap<Position, &'static str>, start: Position, end: Position) -> Option<&'static str> {
    (start.character..end.character).find_map(|c| named.get(&Position::new(start.line, c)).copied())
}

/// The folds of a document: each `{ ... }` over several lines (Masfix's macro and namespace
/// bodies), and each run of two or more comment lines. Braces inside comments and strings
/// do not count.
pub fn folding(target: &dyn Target, doc: &Document) -> Vec<FoldingRange> {
    let text = &doc.text;
    let words = tokens(target.lexicon(), &Mnemonics::default(), text);
    let mut folds = Vec::new();
    let mut open: Vec<u32> = Vec::new();
    let mut at = 0;
    let mut comments: Option<(u32, u32)> = None;
    let close_comments = |folds: &mut Vec<FoldingRange>, run: Option<(u32, u32)>| {
        if let Some((first, last)) = run.filter(|(first, last)| last > first) {
            folds.push(FoldingRange {
                start_line: first,
                end_line: last,
                kind: Some(FoldingRangeKind::Comment),
                ..FoldingRange::default()
            });
        }
    };
    let mut braces = |from: usize, to: usize, folds: &mut Vec<FoldingRange>| {
        for (i, c) in text[from..to].char_indices() {
            let line = || doc.lines.line_of(from + i) as u32;
            match c {
                '{' => open.push(line()),
                '}' => {
                    if let Some(start) = open.pop()
                        && line() > start + 1
                    {
                        folds.push(FoldingRange {
                            start_line: start,
                            end_line: line() - 1,
                            ..FoldingRange::default()
                        });
                    }
                }
                _ => {}
            }
        }
    };
    for word in &words {
        braces(at, word.range.start, &mut folds);
        at = word.range.end;
        if word.kind == TokenKind::Comment {
            let first = doc.lines.line_of(word.range.start) as u32;
            let last = doc.lines.line_of(word.range.end) as u32;
            comments = match comments {
                Some((start, end)) if first == end + 1 => Some((start, last)),
                run => {
                    close_comments(&mut folds, run);
                    Some((first, last))
                }
            };
        }
    }
    braces(at, text.len(), &mut folds);
    close_comments(&mut folds, comments);
    folds.sort_by_key(|f| (f.start_line, f.end_line));
    folds
}

/// The quick fixes of the diagnostics a code action request about the document at `at` names:
/// each fix that polyasm's own diagnostic carries in its `data`, for that document as it is
/// now (`version`; a fix made for an older text is not offered), as an edit.
pub fn quick_fixes(at: &Uri, version: Option<i32>, diagnostics: &[lsp_types::Diagnostic]) -> Vec<CodeActionOrCommand> {
    diagnostics
        .iter()
        .filter(|d| d.source.as_deref() == Some("polyasm"))
        .filter_map(|d| {
            let fix = d.data.as_ref()?.get("fix")?;
            let uri: Uri = serde_json::from_value(fix["uri"].clone()).ok()?;
            let made_for = fix["version"].as_i64();
            if uri != *at || made_for.is_some_and(|v| Some(v) != version.map(i64::from)) {
                return None;
            }
            let edit = TextEdit {
                range: serde_json::from_value(fix["range"].clone()).ok()?,
                new_text: fix["newText"].as_str()?.to_string(),
            };
            let title = format!("Replace with `{}`", edit.new_text);
            let changes = DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
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
