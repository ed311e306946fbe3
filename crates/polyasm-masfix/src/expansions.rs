//! The record of every macro use of an assembly, kept so that an error anywhere can name the
//! chain of uses that led to it, and an instruction a macro made can be placed at the use
//! written in the file.

use std::collections::HashMap;

use polyasm_core::{SourceMap, Span};

/// One macro use, for the chain of notes under an error in its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// As written, `%name` or `!name`: an index of [`Expansions`]' names.
    pub name: u32,
    /// The use, from `%` to its closing bracket.
    pub at: Span,
    /// The expansion the use itself came out of.
    pub parent: u32,
}

/// Every expansion of an assembly, indexed by [`crate::lexer::Token::origin`].
#[derive(Debug, Default)]
pub struct Expansions {
    list: Vec<Expansion>,
    /// The names of [`Expansion::name`], each once.
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
}

impl Expansions {
    /// Records the use `name` at `at`, made in expansion `parent`; its index.
    pub fn push(&mut self, name: String, at: Span, parent: u32) -> u32 {
        let origin = self.list.len() as u32;
        let name = self.intern(name);
        self.list.push(Expansion { name, at, parent });
        origin
    }

    /// The index of `name` among the names of expansions.
    fn intern(&mut self, name: String) -> u32 {
        if let Some(&id) = self.name_ids.get(&name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.clone());
        self.name_ids.insert(name, id);
        id
    }

    /// "in the expansion of `%name` at FILE:LINE:COL" notes for an error in expansion
    /// `origin`, innermost first; a long chain shows its ends.
    pub fn notes(&self, sources: &SourceMap, origin: u32) -> Vec<String> {
        let mut chain = Vec::new();
        let mut at = origin;
        while let Some(e) = self.list.get(at as usize) {
            chain.push(e);
            at = e.parent;
        }
        let describe = |e: &Expansion| {
            let source = sources.get(e.at.source);
            let pos = source.line_col(e.at.start as usize);
            let name = &self.names[e.name as usize];
            format!("in the expansion of `{name}` at {}:{}", source.name(), pos)
        };
        const SHOWN: usize = 8;
        if chain.len() <= SHOWN {
            return chain.into_iter().map(describe).collect();
        }
        let mut notes: Vec<String> = chain[..SHOWN / 2].iter().map(|e| describe(e)).collect();
        notes.push(format!("... {} more expansions ...", chain.len() - SHOWN));
        notes.extend(chain[chain.len() - SHOWN / 2..].iter().map(|e| describe(e)));
        notes
    }

    /// The use in a file that expansion `origin` comes from: the outermost of its chain.
    pub fn outermost(&self, origin: u32) -> Option<Span> {
        let mut at = self.list.get(origin as usize)?;
        while let Some(parent) = self.list.get(at.parent as usize) {
            at = parent;
        }
        Some(at.at)
    }
}
