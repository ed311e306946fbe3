//! The server loop: the handshake, the open documents, and their diagnostics. A thread reads
//! frames into a channel; the loop handles every message waiting before it checks the
//! documents that changed, so that edits in quick succession are checked once, at their last
//! text.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{self, BufRead, Write};
use std::sync::mpsc;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, GotoDefinition, HoverRequest,
    Initialize, InlayHintRequest, PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest,
    SemanticTokensRangeRequest, Shutdown,
};
use lsp_types::{
    CodeActionParams, CodeActionProviderCapability, CompletionOptions, CompletionParams, DidChangeTextDocumentParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentSymbolParams, DocumentSymbolResponse,
    FoldingRangeParams, FoldingRangeProviderCapability, GotoDefinitionParams, GotoDefinitionResponse, HoverParams,
    HoverProviderCapability, InitializeResult, InlayHint, InlayHintLabel, InlayHintParams, OneOf,
    PrepareRenameResponse, PublishDiagnosticsParams, ReferenceParams, RenameOptions, RenameParams, SemanticTokens,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensParams, SemanticTokensRangeParams,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentPositionParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use polyasm_core::Registry;

use crate::check::{Named, OpenFiles, check, file_key, listing};
use crate::document::Document;
use crate::features;
use crate::index::Index;
use crate::transport::{Frame, read_frame, write_message, write_null_id_error, write_parse_error};

/// How the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `exit` after `shutdown`: exit status 0.
    Exit,
    /// `exit` without `shutdown`, or the input ended: exit status 1.
    Abrupt,
}

/// Serves the protocol on `input` and `output` until `exit` or the end of the input. Log lines
/// go to standard error. Fails only when `output` cannot be written (the client is gone).
pub fn serve(registry: &Registry, input: impl BufRead + Send + 'static, mut output: impl Write) -> io::Result<Ended> {
    let (sender, receiver) = mpsc::sync_channel::<Frame>(64);
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            match read_frame(&mut input) {
                Ok(Some(frame)) => {
                    if sender.send(frame).is_err() {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    eprintln!("polyasm lsp: cannot read the input: {e}");
                    return;
                }
            }
        }
    });
    let mut server = Server {
        registry,
        state: State::Uninitialized,
        documents: HashMap::new(),
        changed: BTreeSet::new(),
        published: HashMap::new(),
        index: HashMap::new(),
        named: HashMap::new(),
        error_lines: HashMap::new(),
        inlay_hints: false,
        hints_refresh: None,
        watch_settings: false,
    };
    loop {
        let Ok(first) = receiver.recv() else {
            return Ok(Ended::Abrupt);
        };
        let mut next = Some(first);
        while let Some(frame) = next {
            if let Some(ended) = server.handle(frame, &mut output)? {
                return Ok(ended);
            }
            next = receiver.try_recv().ok();
        }
        server.publish_changed(&mut output)?;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Uninitialized,
    Running,
    ShutDown,
}

struct Server<'r> {
    registry: &'r Registry,
    state: State,
    /// The open documents, by URI.
    documents: HashMap<String, (Uri, Document)>,
    /// The documents opened or changed since they were last checked.
    changed: BTreeSet<String>,
    /// For each open document, the files its last check published diagnostics for.
    published: HashMap<String, BTreeSet<String>>,
    /// For each open document, the names it defines and where they are written, as it last
    /// assembled.
    index: HashMap<String, Index>,
    /// For each open document, what it went by when it was last checked.
    named: HashMap<String, Named>,
    /// The lines with errors of each file diagnostics were published for, as published.
    error_lines: HashMap<String, BTreeSet<u32>>,
    /// Whether inlay hints show each statement's address and words (off unless the client's
    /// settings turn them on).
    inlay_hints: bool,
    /// Whether the client takes `workspace/inlayHint/refresh` (`Some`), and whether one is to
    /// be sent (the setting changed).
    hints_refresh: Option<bool>,
    /// Whether the client takes a registration to tell the server of changed files, so that
    /// a change to a polyasm.toml checks the open documents again.
    watch_settings: bool,
}

impl Server<'_> {
    /// Handles one frame; `Some` when the session ends.
    fn handle(&mut self, frame: Frame, output: &mut impl Write) -> io::Result<Option<Ended>> {
        match frame {
            Frame::Malformed(why) => {
                eprintln!("polyasm lsp: skipped a malformed message: {why}");
                write_parse_error(output, &why)?;
            }
            Frame::InvalidRequest(why) => {
                eprintln!("polyasm lsp: skipped a request: {why}");
                write_null_id_error(output, ErrorCode::InvalidRequest as i32, &why)?;
            }
            Frame::Message(Message::Request(request)) => {
                // A request is answered about the documents as they are now: edits that came
                // before it are checked first.
                if self.state == State::Running && !self.changed.is_empty() {
                    self.publish_changed(output)?;
                }
                self.request(request, output)?
            }
            Frame::Message(Message::Notification(notification)) => {
                if notification.method == "exit" {
                    return Ok(Some(match self.state {
                        State::ShutDown => Ended::Exit,
                        _ => Ended::Abrupt,
                    }));
                }
                if self.state == State::Running {
                    let method = notification.method.clone();
                    let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(notification);
                    }));
                    if handled.is_err() {
                        eprintln!("polyasm lsp: handling `{method}` panicked");
                    }
                    self.ask_for_new_hints(output)?;
                    if method == "initialized" && self.watch_settings {
                        self.watch_settings_files(output)?;
                    }
                }
            }
            // The server sends no requests, so it expects no responses.
            Frame::Message(Message::Response(_)) => {}
        }
        Ok(None)
    }

    /// Answers a request. A panic while answering (a bug) is logged and answered with an
    /// internal error; the server goes on.
    fn request(&mut self, request: Request, output: &mut impl Write) -> io::Result<()> {
        let (id, method) = (request.id.clone(), request.method.clone());
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request)));
        let response = answered.unwrap_or_else(|_| {
            eprintln!("polyasm lsp: answering `{method}` panicked");
            Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "the server failed on this request".to_string(),
            )
        });
        write_message(output, Message::Response(response))
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let answer: Result<serde_json::Value, (ErrorCode, String)> = match (self.state, request.method.as_str()) {
            (State::Uninitialized, Initialize::METHOD) => {
                self.state = State::Running;
                self.settings(&request.params["initializationOptions"]);
                let refresh = &request.params["capabilities"]["workspace"]["inlayHint"]["refreshSupport"];
                self.hints_refresh = (refresh.as_bool() == Some(true)).then_some(false);
                let watched = &request.params["capabilities"]["workspace"]["didChangeWatchedFiles"];
                self.watch_settings = watched["dynamicRegistration"].as_bool() == Some(true);
                Ok(serde_json::to_value(initialize_result()).expect("invariant: the result serializes"))
            }
            (State::Uninitialized, _) => Err((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized yet".to_string(),
            )),
            (State::ShutDown, _) => Err((ErrorCode::InvalidRequest, "the server is shut down".to_string())),
            (State::Running, Initialize::METHOD) => Err((
                ErrorCode::InvalidRequest,
                "the server is initialized already".to_string(),
            )),
            (State::Running, Shutdown::METHOD) => {
                self.state = State::ShutDown;
                Ok(serde_json::Value::Null)
            }
            (State::Running, HoverRequest::METHOD) => reply(&request, |params: HoverParams| {
                let at = params.text_document_position_params;
                let uri = &at.text_document.uri;
                let found = self.document(uri);
                found.and_then(|(doc, target)| features::hover(target, doc, self.index_of(uri), uri, at.position))
            }),
            (State::Running, GotoDefinition::METHOD) => reply(&request, |params: GotoDefinitionParams| {
                let at = params.text_document_position_params;
                let uri = &at.text_document.uri;
                let found = self
                    .document(uri)
                    .and_then(|_| features::declaration(self.index_of(uri), uri, at.position));
                found.map(GotoDefinitionResponse::Scalar)
            }),
            (State::Running, References::METHOD) => reply(&request, |params: ReferenceParams| {
                let at = params.text_document_position;
                let uri = &at.text_document.uri;
                self.document(uri).map(|_| {
                    let declaration = params.context.include_declaration;
                    features::references(self.index_of(uri), self.index.values(), uri, at.position, declaration)
                })
            }),
            (State::Running, PrepareRenameRequest::METHOD) => {
                let answer = |this: &Self, at: TextDocumentPositionParams| {
                    let uri = &at.text_document.uri;
                    this.document(uri).ok_or("the document is not open")?;
                    features::prepare_rename(this.index_of(uri), uri, at.position).map(PrepareRenameResponse::Range)
                };
                reply_or_fail(&request, |at| answer(self, at).map_err(str::to_string))
            }
            (State::Running, Rename::METHOD) => reply_or_fail(&request, |params: RenameParams| {
                let at = params.text_document_position;
                let uri = &at.text_document.uri;
                let (_, target) = self.document(uri).ok_or("the document is not open")?;
                let others = self.index.values();
                let error_mentions = |name: &str| {
                    self.error_lines.iter().any(|(file, lines)| {
                        let Some((_, doc)) = self.documents.get(file) else {
                            return false;
                        };
                        lines.iter().any(|&line| doc.line(line).contains(name))
                    })
                };
                // An open document whose file (which another may include) holds other text.
                let unsaved = |file: &Uri| {
                    let Some((_, doc)) = self.documents.get(file.as_str()) else {
                        return false;
                    };
                    let on_disk = crate::uri::to_path(file.as_str()).and_then(|p| std::fs::read(p).ok());
                    on_disk.is_some_and(|bytes| bytes != doc.text.as_bytes())
                };
                let index = self.index_of(uri);
                let new_name = &params.new_name;
                features::rename(target, index, others, &at, new_name, error_mentions, unsaved)
            }),
            (State::Running, SemanticTokensFullRequest::METHOD) => reply(&request, |params: SemanticTokensParams| {
                let uri = &params.text_document.uri;
                self.document(uri).map(|(doc, target)| SemanticTokens {
                    result_id: None,
                    data: features::semantic_tokens(target, doc, self.index_of(uri), uri, None),
                })
            }),
            (State::Running, SemanticTokensRangeRequest::METHOD) => {
                reply(&request, |params: SemanticTokensRangeParams| {
                    let (uri, range) = (&params.text_document.uri, params.range);
                    let lines = Some(range.start.line..=range.end.line);
                    self.document(uri).map(|(doc, target)| SemanticTokens {
                        result_id: None,
                        data: features::semantic_tokens(target, doc, self.index_of(uri), uri, lines),
                    })
                })
            }
            (State::Running, FoldingRangeRequest::METHOD) => reply(&request, |params: FoldingRangeParams| {
                let uri = &params.text_document.uri;
                self.document(uri).map(|(doc, target)| features::folding(target, doc))
            }),
            (State::Running, DocumentSymbolRequest::METHOD) => reply(&request, |params: DocumentSymbolParams| {
                let uri = params.text_document.uri;
                DocumentSymbolResponse::Flat(features::symbols(&uri, self.index_of(&uri)))
            }),
            (State::Running, InlayHintRequest::METHOD) => reply(&request, |params: InlayHintParams| {
                let (uri, range) = (params.text_document.uri, params.range);
                let hints: Vec<InlayHint> = match self.documents.get(uri.as_str()) {
                    Some((_, doc)) if self.inlay_hints => listing(&self.named_of(&uri), doc)
                        .into_iter()
                        .filter(|(at, _)| (range.start.line..=range.end.line).contains(&at.line))
                        .map(|(position, text)| InlayHint {
                            position,
                            label: InlayHintLabel::String(text),
                            kind: None,
                            text_edits: None,
                            tooltip: None,
                            padding_left: Some(true),
                            padding_right: None,
                            data: None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                hints
            }),
            (State::Running, CodeActionRequest::METHOD) => reply(&request, |params: CodeActionParams| {
                let uri = &params.text_document.uri;
                let version = self.documents.get(uri.as_str()).map(|(_, doc)| doc.version);
                features::quick_fixes(uri, version, &params.context.diagnostics)
            }),
            (State::Running, Completion::METHOD) => reply(&request, |params: CompletionParams| {
                let at = params.text_document_position;
                let uri = &at.text_document.uri;
                let named = self.named_of(uri);
                self.document(uri).map(|(doc, target)| {
                    let (path, dirs) = (named.path.as_deref(), named.include_dirs());
                    features::completions(target, doc, self.index_of(uri), path, dirs, at.position)
                })
            }),
            (State::Running, method) => {
                eprintln!("polyasm lsp: no such method `{method}`");
                Err((ErrorCode::MethodNotFound, "no such method".to_string()))
            }
        };
        match answer {
            Ok(result) => Response::new_ok(id, result),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// Reads the settings the server has (`{ "inlayHints": true }`), as `initializationOptions`
    /// or as the `polyasm` section of `workspace/didChangeConfiguration`; others are ignored.
    fn settings(&mut self, settings: &serde_json::Value) {
        if let Some(on) = settings["inlayHints"].as_bool() {
            if on != self.inlay_hints
                && let Some(pending) = &mut self.hints_refresh
            {
                *pending = true;
            }
            self.inlay_hints = on;
        }
    }

    /// Asks the client to tell of every change to a polyasm.toml (`workspace/didChangeWatchedFiles`).
    fn watch_settings_files(&mut self, output: &mut impl Write) -> io::Result<()> {
        let registration = serde_json::json!({
            "registrations": [{
                "id": "polyasm.toml",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": { "watchers": [{ "globPattern": format!("**/{}", polyasm_core::config::FILE_NAME) }] },
            }]
        });
        let request = Request::new(
            "polyasm/watchSettings".to_string().into(),
            "client/registerCapability".to_string(),
            registration,
        );
        write_message(output, Message::Request(request))
    }

    /// Asks the client to ask again for the inlay hints it shows, after the setting changed
    /// (when it takes such requests). Its answer needs nothing.
    fn ask_for_new_hints(&mut self, output: &mut impl Write) -> io::Result<()> {
        let Some(pending @ true) = &mut self.hints_refresh else {
            return Ok(());
        };
        *pending = false;
        let request = Request::new(
            "polyasm/inlayHintRefresh".to_string().into(),
            "workspace/inlayHint/refresh".to_string(),
            serde_json::Value::Null,
        );
        write_message(output, Message::Request(request))
    }

    /// The names of the document at `uri` as it last assembled (none when it is not open or
    /// has no target).
    fn index_of(&self, uri: &Uri) -> &Index {
        static EMPTY: Index = Index {
            defs: Vec::new(),
            places: Vec::new(),
        };
        self.index.get(uri.as_str()).unwrap_or(&EMPTY)
    }

    /// An open document and its target; `None` (with a log line) when it is not open or its
    /// extension names no target.
    fn document(&self, uri: &Uri) -> Option<(&Document, &'static dyn polyasm_core::Target)> {
        let Some((_, doc)) = self.documents.get(uri.as_str()) else {
            eprintln!("polyasm lsp: a request about `{}`, which is not open", uri.as_str());
            return None;
        };
        Some((doc, self.named_of(uri).target?))
    }

    /// What the document at `uri` went by when it was last checked (its target, its
    /// settings); a fresh look when it never was.
    fn named_of(&self, uri: &Uri) -> std::borrow::Cow<'_, Named> {
        match self.named.get(uri.as_str()) {
            Some(named) => std::borrow::Cow::Borrowed(named),
            None => std::borrow::Cow::Owned(Named::new(self.registry, uri)),
        }
    }

    fn notification(&mut self, notification: Notification) {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Some(params) = params::<DidOpenTextDocumentParams>(&notification) {
                    let doc = params.text_document;
                    let key = doc.uri.as_str().to_string();
                    self.documents
                        .insert(key.clone(), (doc.uri, Document::new(doc.text, doc.version)));
                    self.changed.insert(key);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Some(params) = params::<DidChangeTextDocumentParams>(&notification) {
                    let key = params.text_document.uri.as_str().to_string();
                    match self.documents.get_mut(&key) {
                        Some((_, doc)) => {
                            doc.apply(params.text_document.version, params.content_changes);
                            self.changed.insert(key);
                        }
                        None => eprintln!("polyasm lsp: a change to `{key}`, which is not open"),
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(params) = params::<DidCloseTextDocumentParams>(&notification) {
                    let key = params.text_document.uri.as_str().to_string();
                    if self.documents.remove(&key).is_none() {
                        eprintln!("polyasm lsp: `{key}` closed, but it is not open");
                    }
                    self.changed.insert(key);
                }
            }
            "workspace/didChangeConfiguration" => {
                let settings = &notification.params["settings"];
                let ours = if settings["polyasm"].is_object() {
                    &settings["polyasm"]
                } else {
                    settings
                };
                self.settings(&ours.clone());
            }
            // A polyasm.toml changed: every open document is checked again with it.
            "workspace/didChangeWatchedFiles" => {
                self.changed.extend(self.documents.keys().cloned());
            }
            // Other notifications (`initialized`, `$/...`) need nothing.
            _ => {}
        }
    }

    /// Checks the documents that changed and publishes their diagnostics, clearing those of
    /// files a document no longer reports on (a closed document clears all of its own).
    fn publish_changed(&mut self, output: &mut impl Write) -> io::Result<()> {
        let open: OpenFiles = self
            .documents
            .values()
            .filter_map(|(uri, _)| Some((file_key(&crate::uri::to_path(uri.as_str())?), uri.clone())))
            .collect();
        for key in std::mem::take(&mut self.changed) {
            let (files, version) = match self.documents.get(&key) {
                Some((uri, doc)) => {
                    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        check(self.registry, uri, doc, &open)
                    }));
                    let Ok(checked) = checked else {
                        eprintln!("polyasm lsp: checking `{key}` panicked");
                        continue;
                    };
                    match checked.index {
                        Some(index) => self.index.insert(key.clone(), index),
                        None => self.index.remove(&key),
                    };
                    self.named.insert(key.clone(), checked.named);
                    (checked.files, Some(doc.version))
                }
                None => {
                    self.index.remove(&key);
                    self.named.remove(&key);
                    (BTreeMap::new(), None)
                }
            };
            // An open file's diagnostics are its own check's, not those of a file including it.
            let others_open = |file: &String| *file != key && self.documents.contains_key(file);
            let before = self.published.remove(&key).unwrap_or_default();
            // A file another document publishes for too keeps what that one published.
            let others_publish = |file: &String| self.published.values().any(|files| files.contains(file));
            for gone in before
                .iter()
                .filter(|f| !files.contains_key(*f) && !others_open(f) && !others_publish(f))
            {
                self.error_lines.remove(gone);
                publish(output, gone, Vec::new(), None)?;
            }
            let mut now = BTreeSet::new();
            for (file, diagnostics) in files {
                if others_open(&file) {
                    continue;
                }
                let own = (file == key).then_some(version).flatten();
                let mut diagnostics = diagnostics;
                if let Some(version) = own {
                    // A fix holds for the text it was made from: a code action after more
                    // edits does not offer it.
                    for d in &mut diagnostics {
                        if let Some(fix) = d.data.as_mut().and_then(|data| data.get_mut("fix")) {
                            fix["version"] = version.into();
                        }
                    }
                }
                let errors = diagnostics
                    .iter()
                    .filter(|d| d.severity == Some(lsp_types::DiagnosticSeverity::ERROR))
                    .map(|d| d.range.start.line);
                self.error_lines.insert(file.clone(), errors.collect());
                publish(output, &file, diagnostics, own)?;
                now.insert(file);
            }
            if version.is_some() {
                self.published.insert(key, now);
            }
        }
        Ok(())
    }
}

/// The answer to a request: `answer` of its parameters, or the error that they do not read.
fn reply<P: serde::de::DeserializeOwned, R: serde::Serialize>(
    request: &Request,
    answer: impl FnOnce(P) -> R,
) -> Result<serde_json::Value, (ErrorCode, String)> {
    match serde_json::from_value(request.params.clone()) {
        Ok(params) => Ok(serde_json::to_value(answer(params)).expect("invariant: protocol types serialize")),
        Err(e) => {
            eprintln!("polyasm lsp: bad parameters of `{}`: {e}", request.method);
            Err((ErrorCode::InvalidParams, "the parameters do not read".to_string()))
        }
    }
}

/// The answer to a request that may fail (a rename to a name that is not one): `answer` of
/// its parameters, or the error with its reason.
fn reply_or_fail<P: serde::de::DeserializeOwned, R: serde::Serialize>(
    request: &Request,
    answer: impl FnOnce(P) -> Result<R, String>,
) -> Result<serde_json::Value, (ErrorCode, String)> {
    match serde_json::from_value(request.params.clone()) {
        Ok(params) => match answer(params) {
            Ok(result) => Ok(serde_json::to_value(result).expect("invariant: protocol types serialize")),
            Err(why) => Err((ErrorCode::RequestFailed, why)),
        },
        Err(e) => {
            eprintln!("polyasm lsp: bad parameters of `{}`: {e}", request.method);
            Err((ErrorCode::InvalidParams, "the parameters do not read".to_string()))
        }
    }
}

/// A notification's parameters; a log line and `None` when they do not read.
fn params<P: serde::de::DeserializeOwned>(notification: &Notification) -> Option<P> {
    match serde_json::from_value(notification.params.clone()) {
        Ok(params) => Some(params),
        Err(e) => {
            eprintln!("polyasm lsp: bad parameters of `{}`: {e}", notification.method);
            None
        }
    }
}

fn publish(
    output: &mut impl Write,
    file: &str,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> io::Result<()> {
    let Ok(uri) = file.parse::<Uri>() else {
        return Ok(());
    };
    let params = PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let notification = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
    write_message(output, Message::Notification(notification))
}

fn initialize_result() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            document_symbol_provider: Some(OneOf::Left(true)),
            inlay_hint_provider: Some(OneOf::Left(true)),
            code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec!["\"".to_string(), "/".to_string()]),
                ..CompletionOptions::default()
            }),
            references_provider: Some(OneOf::Left(true)),
            rename_provider: Some(OneOf::Right(RenameOptions {
                prepare_provider: Some(true),
                work_done_progress_options: Default::default(),
            })),
            folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
            semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                SemanticTokensOptions {
                    legend: features::legend(),
                    full: Some(SemanticTokensFullOptions::Bool(true)),
                    range: Some(true),
                    work_done_progress_options: Default::default(),
                },
            )),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "polyasm".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    }
}
