//! The names a document defines and every place each is written: what the dialect recorded
//! while assembling ([`polyasm_core::editor::Names`]), in the protocol's locations. Go to
//! definition, references, rename, hover on a name, document symbols and the colours of names
//! read it.

use std::collections::{HashMap, HashSet};

use lsp_types::{Location, Position, Uri};
use polyasm_core::editor::Names;
use polyasm_core::{SourceMap, Span};

/// A name a document defines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Def {
    /// As a use writes it (`LIMIT`, `#tint`, `std:push`).
    pub name: String,
    /// What the dialect calls it (`label`, `constant`, `vector`).
    pub kind: &'static str,
    /// What it stands for (`= 1000`, `c96...c99`).
    pub detail: String,
    /// Its name in the definition; `None` in a text with no file (a library built into
    /// polyasm), which can be read about but not changed.
    pub location: Option<Location>,
}

impl Def {
    /// The name as the text at its definition and uses writes it: the last part of a name in
    /// a namespace (`push` of `std:push`).
    pub fn written(&self) -> &str {
        self.name.rsplit(':').next().unwrap_or(&self.name)
    }
}

/// The names of a document and where each is written (its definition among them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index {
    pub defs: Vec<Def>,
    /// Each place a name is written, once, with the index of its [`Def`].
    pub places: Vec<(Location, usize)>,
}

impl Index {
    /// Reads what the dialect recorded. A place is kept only where the text there is the
    /// name, so that a rename never writes over anything else (a name a macro built, a use
    /// the dialect placed at the macro's use).
    pub fn new(names: Names, sources: &SourceMap, mut location: impl FnMut(Span) -> Option<Location>) -> Index {
        let mut index = Index::default();
        let mut by_span: HashMap<Span, usize> = HashMap::new();
        let text_is = |span: Span, name: &str| {
            let text = sources.get(span.source).text();
            text.get(span.range()) == Some(name)
        };
        for d in names.definitions {
            let def = Def {
                name: d.name,
                kind: d.kind,
                detail: d.detail,
                location: None,
            };
            if !text_is(d.span, def.written()) || by_span.contains_key(&d.span) {
                continue;
            }
            let place = location(d.span);
            by_span.insert(d.span, index.defs.len());
            index.defs.push(Def {
                location: place.clone(),
                ..def
            });
            if let Some(place) = place {
                index.places.push((place, index.defs.len() - 1));
            }
        }
        let mut seen: HashSet<Span> = HashSet::new();
        for (at, defined) in names.uses {
            let Some(&def) = by_span.get(&defined) else {
                continue;
            };
            if at == defined || !seen.insert(at) || !text_is(at, index.defs[def].written()) {
                continue;
            }
            if let Some(place) = location(at) {
                index.places.push((place, def));
            }
        }
        index
    }

    /// The name written at `position` of `uri`: the index of its definition and the place.
    pub fn at(&self, uri: &Uri, position: Position) -> Option<(usize, &Location)> {
        self.places
            .iter()
            .find(|(place, _)| place.uri == *uri && place.range.start <= position && position <= place.range.end)
            .map(|(place, def)| (*def, place))
    }

    /// Every place the name of definition `def` is written.
    pub fn places_of(&self, def: usize) -> impl Iterator<Item = &Location> {
        self.places
            .iter()
            .filter(move |(_, d)| *d == def)
            .map(|(place, _)| place)
    }

    /// The definition whose name is written at `location`, if this index has it.
    pub fn def_at(&self, location: &Location) -> Option<usize> {
        self.defs.iter().position(|d| d.location.as_ref() == Some(location))
    }
}
