//! What every dialect's front end shares: a hand-written lexer hands over one statement of
//! tokens at a time, statements are gathered in bounded chunks, and a chumsky parser reads each
//! statement on its own (so recovery is per statement and memory stays flat on huge inputs).

use std::ops::Range;

use chumsky::error::{EmptyErr, Rich, RichPattern};
use chumsky::input::{Input as _, MappedInput};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;

/// A token with its byte range in the source.
pub type Spanned<T> = (T, Range<usize>);

/// The chumsky input of one statement: a slice of spanned tokens.
pub type TokenInput<'t, T> = MappedInput<'t, T, Range<usize>, &'t [Spanned<T>]>;

/// The error chumsky reports on a statement.
pub type SyntaxError<'t, T> = Rich<'t, T, Range<usize>>;

/// Statements lexed and parsed per batch; bounds the token buffer on huge inputs.
pub const STATEMENTS_PER_CHUNK: usize = 4096;

/// A lexing error: a `/*` without its `*/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnterminatedComment {
    /// The `/*` that opens the unterminated comment.
    pub open: Range<usize>,
}

/// Whether `b` continues an identifier or a number: `[A-Za-z0-9_]`. A table lookup: lexers ask
/// this of nearly every byte.
#[inline]
pub fn is_ident_continue(b: u8) -> bool {
    IDENT_CONTINUE[usize::from(b)]
}

const IDENT_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

/// The first index at or after `from` whose byte does not satisfy `pred`.
#[inline]
pub fn scan_while(bytes: &[u8], from: usize, pred: impl Fn(u8) -> bool) -> usize {
    bytes[from..]
        .iter()
        .position(|&b| !pred(b))
        .map_or(bytes.len(), |i| from + i)
}

/// The end of a C `/* */` comment opening at `from` (C comments do not nest); `None` when
/// it has no `*/`.
pub fn block_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    bytes[from + 2..]
        .windows(2)
        .position(|w| w == b"*/")
        .map(|i| from + 2 + i + 2)
}

/// A lexer that produces tokens one statement at a time.
pub trait StatementLexer<'s> {
    /// A token of the statement, borrowed from the text.
    type Token: 's;
    /// A lexing error; lexing goes on after it.
    type Error;

    /// Whether every byte has been consumed.
    fn at_end(&self) -> bool;

    /// Appends the tokens of the next statement to `out` (none for a blank line).
    fn next_statement(&mut self, out: &mut Vec<Spanned<Self::Token>>) -> Result<(), Self::Error>;
}

/// Inputs at least this long are lexed and parsed on a second thread while this one encodes
/// ([`pipeline`]); for shorter ones a thread costs more than it saves.
pub const PIPELINE_MIN_BYTES: usize = 256 * 1024;

/// Runs `produce` and `consume` as the two stages of a pipeline: `produce` (lexing and
/// parsing) emits items, `consume` (encoding) takes them in order. When `parallel`, `produce`
/// runs on a second thread and a bounded queue of a few items joins the two, so memory stays
/// flat; otherwise, or when no thread can be started, both run on this thread, item by item.
pub fn pipeline<C: Send>(parallel: bool, produce: impl FnOnce(&mut dyn FnMut(C)) + Send, mut consume: impl FnMut(C)) {
    // Kept here until a thread takes it, so that it can still run here if none starts.
    let producer = std::sync::Mutex::new(Some(produce));
    let take = || {
        producer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    };
    if parallel {
        let (sender, receiver) = std::sync::mpsc::sync_channel::<C>(4);
        let started = std::thread::scope(|scope| {
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
                if let Some(produce) = take() {
                    // A send fails only once the consumer is gone (it panicked): drop the rest.
                    produce(&mut |item| drop(sender.send(item)));
                }
            });
            if worker.is_err() {
                return false;
            }
            for item in receiver {
                consume(item);
            }
            true
        });
        if started {
            return;
        }
    }
    if let Some(produce) = take() {
        produce(&mut consume);
    }
}

/// A dialect's reading stage, the first of [`assemble`]'s two: its lexer hands over the input
/// a statement at a time, and [`Reader::parse`] turns each chunk of statements into what the
/// dialect's encoder reads (typed errors included: a syntax error is part of the chunk).
///
/// A reader runs on a second thread for a big input, so it and its chunks are `Send`, and it
/// holds what parsing needs (the text, the source's id), never the encoder's state.
pub trait Reader<'s>: Send {
    /// The dialect's lexer, which hands over the input a statement at a time.
    type Lexer: StatementLexer<'s>;
    /// A chunk of statements, parsed.
    type Chunk: Send;

    /// Whether the input is big enough for a second thread to pay ([`PIPELINE_MIN_BYTES`]).
    fn parallel(&self) -> bool;

    /// The lexer, at the start of the input.
    fn lexer(&self) -> Self::Lexer;

    /// Parses one chunk: its tokens, each statement's index range into them (a blank line is
    /// an empty range), and the lexing errors met in it.
    fn parse(
        &mut self,
        tokens: &[Spanned<LexToken<'s, Self>>],
        statements: &[Range<usize>],
        errors: Vec<LexError<'s, Self>>,
    ) -> Self::Chunk;
}

/// The token type of a reader's lexer.
pub type LexToken<'s, R> = <<R as Reader<'s>>::Lexer as StatementLexer<'s>>::Token;

/// The error type of a reader's lexer.
pub type LexError<'s, R> = <<R as Reader<'s>>::Lexer as StatementLexer<'s>>::Error;

/// A dialect's encoding stage, the second of [`assemble`]'s two: it takes the chunks in the
/// order of the source, collects every error (its own and those the chunks carry) and finishes
/// into the dialect's result. It always runs on the calling thread, under its error limit.
pub trait Encode<C> {
    /// What assembling gives when every chunk is encoded: words and errors, usually.
    type Output;

    /// Encodes the statements of one chunk and takes its errors.
    fn encode(&mut self, chunk: C);

    /// The result, once every chunk is encoded.
    fn finish(self) -> Self::Output;
}

/// The assembly loop every dialect runs: lexes the input in chunks of
/// [`STATEMENTS_PER_CHUNK`] statements, parses each chunk ([`Reader::parse`]) and encodes the
/// chunks in order ([`Encode::encode`]). The two stages are the two of a [`pipeline`]: a big
/// input ([`Reader::parallel`]) is read on a second thread while this one encodes. The encoder
/// sees the same chunks in the same order either way.
pub fn assemble<'s, R, E>(mut reader: R, mut encoder: E) -> E::Output
where
    R: Reader<'s>,
    E: Encode<R::Chunk>,
{
    pipeline(
        reader.parallel(),
        move |emit| {
            let mut lexer = reader.lexer();
            // A chunk's tokens and each statement's index range into them; kept from chunk to chunk.
            let mut tokens = Vec::with_capacity(STATEMENTS_PER_CHUNK * 8);
            let mut statements = Vec::with_capacity(STATEMENTS_PER_CHUNK);
            while !lexer.at_end() {
                tokens.clear();
                statements.clear();
                let mut errors = Vec::new();
                while statements.len() < STATEMENTS_PER_CHUNK && !lexer.at_end() {
                    let start = tokens.len();
                    if let Err(e) = lexer.next_statement(&mut tokens) {
                        errors.push(e);
                    }
                    statements.push(start..tokens.len());
                }
                emit(reader.parse(&tokens, &statements, errors));
            }
        },
        |chunk| encoder.encode(chunk),
    );
    encoder.finish()
}

/// Parses each non-empty statement of a chunk, telling `each` its index. `fast` is the same grammar with
/// [`EmptyErr`]: it allocates nothing for the alternatives it tries, so valid statements go
/// through it alone; a statement it rejects is parsed again with `rich` for the message.
///
/// `state` is the parsers' chumsky state: `()` for none, or an arena such as
/// [`chumsky::inspector::TruncateState`] that collects a statement's list items (rewound when the
/// parser backtracks), so that parse results stay small. `each` sees it after every statement;
/// emptying it is the caller's business.
pub fn parse_statements<'t, T, O, S, PF, PR>(
    fast: &PF,
    rich: &PR,
    tokens: &'t [Spanned<T>],
    statements: &[Range<usize>],
    state: &mut S,
    mut each: impl FnMut(usize, &S, Result<O, Vec<SyntaxError<'t, T>>>),
) where
    T: PartialEq + 't,
    S: Inspector<'t, TokenInput<'t, T>>,
    PF: Parser<'t, TokenInput<'t, T>, O, extra::Full<EmptyErr, S, ()>>,
    PR: Parser<'t, TokenInput<'t, T>, O, extra::Full<SyntaxError<'t, T>, S, ()>>,
{
    for (index, statement) in statements.iter().enumerate() {
        let toks = &tokens[statement.clone()];
        let Some(last) = toks.last() else { continue };
        let eoi = last.1.end..last.1.end;
        match fast
            .parse_with_state(toks.split_token_span(eoi.clone()), state)
            .into_output()
        {
            Some(output) => each(index, state, Ok(output)),
            None => {
                let result = rich.parse_with_state(toks.split_token_span(eoi), state).into_result();
                each(index, state, result);
            }
        }
    }
}

/// How a grammar names its parts for messages ("expected an operand"). A grammar generic over
/// its error type writes `E::label(parser, "an operand")`: with [`Rich`] errors that is
/// [`Parser::labelled`], with [`EmptyErr`] (the fast path of [`parse_statements`]) the parser
/// itself, so valid statements pay nothing for labels they never show.
pub trait Labels<'t, I: chumsky::input::Input<'t>>: Sized {
    /// `parser`, named `label` in messages ("expected an operand") when the error type keeps
    /// labels, and left as it is when it does not.
    fn label<O, X, P>(parser: P, label: &'static str) -> impl Parser<'t, I, O, X> + Copy
    where
        X: extra::ParserExtra<'t, I, Error = Self>,
        P: Parser<'t, I, O, X> + Copy;
}

impl<'t, I: chumsky::input::Input<'t>> Labels<'t, I> for EmptyErr {
    fn label<O, X, P>(parser: P, _label: &'static str) -> impl Parser<'t, I, O, X> + Copy
    where
        X: extra::ParserExtra<'t, I, Error = Self>,
        P: Parser<'t, I, O, X> + Copy,
    {
        parser
    }
}

impl<'t, T, I> Labels<'t, I> for SyntaxError<'t, T>
where
    T: PartialEq + 't,
    I: chumsky::input::Input<'t, Token = T, Span = Range<usize>>,
{
    fn label<O, X, P>(parser: P, label: &'static str) -> impl Parser<'t, I, O, X> + Copy
    where
        X: extra::ParserExtra<'t, I, Error = Self>,
        P: Parser<'t, I, O, X> + Copy,
    {
        parser.labelled(label)
    }
}

/// A syntax error in words: where, what was found (quoted from `source`, the text the tokens were
/// lexed from; `end of line` at the end) and the list of what was expected ("`a`, `b` or `c`").
pub fn describe_syntax_error<T: std::fmt::Display>(
    error: &SyntaxError<'_, T>,
    source: &str,
) -> (Range<usize>, String, String) {
    let found = match (error.found(), source.get(error.span().clone())) {
        (Some(_), Some(text)) => format!("`{text}`"),
        (Some(token), None) => token.to_string(),
        (None, _) => "end of line".to_string(),
    };
    let expected = crate::text::list_alternatives(
        error
            .expected()
            // "something else" says nothing when other alternatives are listed.
            .filter(|pattern| !matches!(pattern, RichPattern::SomethingElse) || error.expected().len() == 1)
            .map(|pattern| match pattern {
                // Tokens print themselves (quoted as the dialect likes); chumsky would add quotes.
                RichPattern::Token(token) => token.to_string(),
                other => other.to_string(),
            })
            .collect(),
    );
    (error.span().clone(), found, expected)
}

/// A byte range of one source in 8 bytes: what parse results hold, so that they stay small
/// to move (sources are below 4 GiB, as [`crate::Span`] assumes too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextRange {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl TextRange {
    /// The bytes `start..end`; the offsets must be below 4 GiB.
    pub fn new(start: usize, end: usize) -> TextRange {
        TextRange {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The range as `usize` offsets, to slice the text with.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The text this range covers in `source`.
    pub fn text(self, source: &str) -> &str {
        &source[self.range()]
    }

    /// The range as a diagnostic span of `source`.
    pub fn in_source(self, source: crate::SourceId) -> crate::Span {
        crate::Span::new(source, self.start as usize, self.end as usize)
    }

    /// From the start of `self` to the end of `other`.
    pub fn to(self, other: TextRange) -> TextRange {
        TextRange {
            start: self.start,
            end: other.end,
        }
    }
}

impl From<Range<usize>> for TextRange {
    fn from(range: Range<usize>) -> TextRange {
        TextRange::new(range.start, range.end)
    }
}

/// Where a statement's list went in an arena, a `Vec` its parser appends to (the parser's
/// state, which chumsky rewinds when it backtracks): parse results hold this instead of a list
/// of their own, so that a statement allocates nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Run {
    start: u32,
    len: u32,
}

impl Run {
    /// Items `range` of the arena.
    pub fn new(range: Range<usize>) -> Run {
        Run {
            start: range.start as u32,
            len: range.len() as u32,
        }
    }

    /// The last `len` items of `arena`: the list just parsed.
    pub fn last<T>(arena: &[T], len: usize) -> Run {
        Run::new(arena.len() - len..arena.len())
    }

    /// The items, read from the arena they were parsed into.
    pub fn of<T>(self, arena: &[T]) -> &[T] {
        &arena[self.start as usize..(self.start + self.len) as usize]
    }

    /// The index of its first item.
    pub fn start(self) -> usize {
        self.start as usize
    }

    /// How many items the list holds.
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the list holds no item.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
}

/// Something that knows where it was written.
pub trait HasSpan {
    /// Where it was written, as a byte range of its source.
    fn span(&self) -> TextRange;
}

impl HasSpan for TextRange {
    fn span(&self) -> TextRange {
        *self
    }
}

/// The span of `items[from..]`: from the first of them to the last; `None` if there are none.
pub fn span_from<T: HasSpan>(items: &[T], from: usize) -> Option<TextRange> {
    let (first, last) = (items.get(from)?, items.last()?);
    Some(first.span().to(last.span()))
}

/// A list of at most `N` items kept inline (no allocation per statement), which still counts
/// and spans the items written past `N` so the encoder can point at them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounded<T, const N: usize> {
    items: [T; N],
    len: u32,
    /// Covers every item past `N`.
    pub overflow: Option<TextRange>,
    overflow_count: u32,
}

impl<T: Default, const N: usize> Default for Bounded<T, N> {
    fn default() -> Self {
        Bounded {
            items: std::array::from_fn(|_| T::default()),
            len: 0,
            overflow: None,
            overflow_count: 0,
        }
    }
}

impl<T: HasSpan, const N: usize> Bounded<T, N> {
    /// The items kept inline: the first `N` at most ([`Bounded::count`] counts them all).
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len as usize]
    }

    /// How many items were written, including those past `N`.
    pub fn count(&self) -> usize {
        (self.len + self.overflow_count) as usize
    }

    /// Every item's span from index `from` on, including the overflow.
    pub fn span_from(&self, from: usize) -> Option<TextRange> {
        match (span_from(self.as_slice(), from), self.overflow) {
            (Some(listed), Some(overflow)) => Some(listed.to(overflow)),
            (listed, overflow) => listed.or(overflow),
        }
    }
}

impl<T: HasSpan + Default, const N: usize> chumsky::container::Container<T> for Bounded<T, N> {
    fn push(&mut self, item: T) {
        if (self.len as usize) < N {
            self.items[self.len as usize] = item;
            self.len += 1;
        } else {
            let span = item.span();
            self.overflow = Some(self.overflow.unwrap_or(span).to(span));
            self.overflow_count += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chumsky::container::Container as _;

    #[test]
    fn a_pipeline_hands_over_every_item_in_order_on_one_thread_or_two() {
        for parallel in [false, true] {
            let mut seen = Vec::new();
            pipeline(
                parallel,
                |emit| {
                    for i in 0..1000 {
                        emit(vec![i; i % 7]);
                    }
                },
                |item: Vec<usize>| seen.push(item),
            );
            let expected: Vec<Vec<usize>> = (0..1000).map(|i| vec![i; i % 7]).collect();
            assert_eq!(seen, expected, "parallel: {parallel}");
        }
    }

    #[derive(Clone, Debug, Default, PartialEq)]
    struct Item(TextRange);

    impl HasSpan for Item {
        fn span(&self) -> TextRange {
            self.0
        }
    }

    /// A one-token grammar: a digit, labelled.
    fn digit<'t, E>() -> impl Parser<'t, TokenInput<'t, char>, char, extra::Err<E>>
    where
        E: chumsky::error::Error<'t, TokenInput<'t, char>> + Labels<'t, TokenInput<'t, char>> + 't,
    {
        E::label(any().filter(|c: &char| c.is_ascii_digit()), "a digit").then_ignore(end())
    }

    #[test]
    fn labels_name_what_was_expected_only_in_rich_errors() {
        let parse = |c: char| {
            let tokens = [(c, 4..5)];
            let text = format!("    {c}");
            let text = text.as_str();
            let whole: Vec<Range<usize>> = std::iter::once(0..1).collect();
            let mut out = None;
            parse_statements(&digit(), &digit(), &tokens, &whole, &mut (), |_, _, r| {
                out = Some(r.map_err(|errors| {
                    errors
                        .iter()
                        .map(|e| describe_syntax_error(e, text))
                        .collect::<Vec<_>>()
                }))
            });
            out.expect("one statement")
        };
        assert_eq!(parse('7'), Ok('7'));
        assert_eq!(parse('x'), Err(vec![(4..5, "`x`".to_string(), "a digit".to_string())]));
    }

    #[test]
    fn byte_helpers_find_ends() {
        let text = b"abc_1 x/* c */y\nz/* open";
        assert_eq!(scan_while(text, 0, is_ident_continue), 5);
        assert_eq!(block_comment_end(text, 7), Some(14));
        assert_eq!(block_comment_end(text, 17), None);
    }

    #[test]
    fn bounded_lists_keep_the_span_of_items_past_their_capacity() {
        let mut list = Bounded::<Item, 2>::default();
        for start in [0, 3, 6, 9] {
            list.push(Item(TextRange::new(start, start + 2)));
        }
        assert_eq!(
            list.as_slice(),
            [Item(TextRange::new(0, 2)), Item(TextRange::new(3, 5))]
        );
        assert_eq!(list.count(), 4);
        assert_eq!(list.overflow, Some(TextRange::new(6, 11)));
        assert_eq!(list.span_from(1), Some(TextRange::new(3, 11)));
        assert_eq!(list.span_from(2), Some(TextRange::new(6, 11)));
        assert_eq!(TextRange::new(4, 10).text("mov r0, v0 ; x"), "r0, v0");
        assert_eq!(Bounded::<Item, 2>::default().span_from(0), None);
    }
}
