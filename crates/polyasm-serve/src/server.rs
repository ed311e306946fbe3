//! The HTTP side: the page's three files, the explanations of codes, and the WebSocket each
//! page talks over. Every request must name the served address in `Host` (and `Origin`, when
//! it has one), so that a page of another site cannot reach the server through a DNS name
//! that points at this machine.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use futures_util::{SinkExt as _, StreamExt as _};
use polyasm_core::Explain;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use crate::html::escape;
use crate::hub::{Change, Entry, Hub};
use crate::live::{self, PictureRequest, RunRequest};

/// The most pages connected at once.
pub const MAX_CONNECTIONS: usize = 64;

/// The largest message a page may send (a Masfix program's standard input, mostly).
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// The most runs going on at once over every page; a run asked for beyond is `busy`.
pub const MAX_RUNS: usize = 4;

/// The most pictures one page may wait for at once.
const MAX_PENDING_PICTURES: usize = 2;

const INDEX_HTML: &str = include_str!("../page/index.html");
const APP_JS: &str = include_str!("../page/app.js");
const STYLE_CSS: &str = include_str!("../page/style.css");

/// The router of the whole server.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { page_file("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { page_file("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/explain/{code}", get(explain))
        .route("/ws", get(socket))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
        .layer(middleware::from_fn_with_state(hub.clone(), guard))
        .with_state(hub)
}

/// Refuses requests that do not name this server (DNS rebinding, other sites' pages).
async fn guard(State(hub): State<Arc<Hub>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = match (hosts.next().and_then(|h| h.to_str().ok()), hosts.next()) {
        (Some(host), None) if names_this_server(host, hub.port, hub.any_address) => host,
        _ => {
            return (
                StatusCode::FORBIDDEN,
                "this server answers only requests for its own address\n",
            )
                .into_response();
        }
    };
    // A page of this server names the address it was loaded from as its origin.
    if let Some(origin) = headers.get(header::ORIGIN) {
        let same = origin
            .to_str()
            .ok()
            .and_then(|o| o.strip_prefix("http://"))
            .is_some_and(|o| o.eq_ignore_ascii_case(host));
        if !same {
            return (StatusCode::FORBIDDEN, "requests from other sites are refused\n").into_response();
        }
    }
    if request.method() != axum::http::Method::GET && request.method() != axum::http::Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "only GET\n").into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'",
        ),
    );
    response
}

/// Whether a `Host` value names this server: `localhost` or a loopback address with the
/// server's port, or any IP address when it serves other machines (`any_address`). A DNS name
/// is refused: a page elsewhere can make one point at this machine, but cannot make the
/// browser send an address of it as its host.
pub fn names_this_server(host: &str, port: u16, any_address: bool) -> bool {
    let Some((name, given)) = host.rsplit_once(':') else {
        return false;
    };
    if given.parse::<u16>() != Ok(port) {
        return false;
    }
    let name = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| any_address || ip.is_loopback())
}

async fn index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

fn page_file(kind: &'static str, text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

/// `/explain/CODE`: what `polyasm explain CODE` prints, as a page.
async fn explain(State(hub): State<Arc<Hub>>, UrlPath(code): UrlPath<String>) -> Response {
    let Some(info) = hub.registry.explain(&code) else {
        return (
            StatusCode::NOT_FOUND,
            Html(format!(
                "<!doctype html><title>unknown code</title><p>There is no diagnostic code {}.</p>",
                escape(&code)
            )),
        )
            .into_response();
    };
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{code}: {title}</title><link rel=\"stylesheet\" href=\"/style.css\"></head><body class=\"explain\"><h1>{code}: {title}</h1><p class=\"severity\">{severity}</p><pre class=\"explanation\">{text}</pre></body></html>",
        code = escape(info.code),
        title = escape(info.title),
        severity = match info.severity {
            polyasm_core::Severity::Error => "error",
            polyasm_core::Severity::Warning => "warning",
        },
        text = escape(info.explanation),
    ))
    .into_response()
}

async fn socket(State(hub): State<Arc<Hub>>, upgrade: WebSocketUpgrade) -> Response {
    let taken = hub.connections.fetch_add(1, Ordering::SeqCst);
    if taken >= MAX_CONNECTIONS {
        hub.connections.fetch_sub(1, Ordering::SeqCst);
        return (StatusCode::SERVICE_UNAVAILABLE, "too many pages are open\n").into_response();
    }
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_failed_upgrade({
            let hub = hub.clone();
            move |_| {
                hub.connections.fetch_sub(1, Ordering::SeqCst);
            }
        })
        .on_upgrade(move |socket| async move {
            Connection::run(hub.clone(), socket).await;
            hub.connections.fetch_sub(1, Ordering::SeqCst);
        })
}

/// One page.
struct Connection {
    hub: Arc<Hub>,
    out: mpsc::Sender<Message>,
    /// The source the page shows.
    open: Option<String>,
    /// The page's run going on, with its number and stop flag.
    run: Option<Run>,
    pending_pictures: Arc<std::sync::atomic::AtomicUsize>,
}

impl Connection {
    async fn run(hub: Arc<Hub>, socket: WebSocket) {
        let (mut sink, mut stream) = socket.split();
        let (out, mut queue) = mpsc::channel::<Message>(16);
        // The writer: everything the page gets goes through `out`, so that a slow page slows
        // its own runs and pictures, not the server.
        let writer = tokio::spawn(async move {
            while let Some(message) = queue.recv().await {
                if sink.send(message).await.is_err() {
                    break;
                }
            }
        });
        let mut connection = Connection {
            hub: hub.clone(),
            out,
            open: None,
            run: None,
            pending_pictures: Arc::new(std::sync::atomic::AtomicUsize::new(0)),
        };
        let mut changes = hub.changes.subscribe();
        let hello = json!({
            "type": "hello",
            "version": env!("CARGO_PKG_VERSION"),
            "gpu": hub.pictures.gpu_name(),
        });
        let started = connection.send(hello.to_string()).await && connection.send(hub.files_message()).await;
        if started {
            loop {
                tokio::select! {
                    message = stream.next() => match message {
                        Some(Ok(Message::Text(text))) => {
                            if !connection.request(text.as_str()).await {
                                break;
                            }
                        }
                        Some(Ok(Message::Binary(_))) => {
                            if !connection.error("the page sends text messages only").await {
                                break;
                            }
                        }
                        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                        Some(Ok(_)) => {}
                    },
                    change = changes.recv() => {
                        let sent = match change {
                            Ok(Change::Files) => connection.files_changed().await,
                            Ok(Change::File(name)) if connection.open.as_deref() == Some(name.as_str()) => connection.send_open().await,
                            Ok(Change::File(_)) => true,
                            // Missed news: the whole state again.
                            Err(broadcast::error::RecvError::Lagged(_)) => connection.files_changed().await && connection.send_open().await,
                            Err(broadcast::error::RecvError::Closed) => false,
                        };
                        if !sent {
                            break;
                        }
                    }
                }
            }
        }
        connection.stop_run();
        drop(connection);
        let _ = writer.await;
    }

    async fn send(&self, text: String) -> bool {
        self.out.send(Message::Text(text.into())).await.is_ok()
    }

    async fn error(&self, message: &str) -> bool {
        self.send(json!({"type": "error", "message": message}).to_string())
            .await
    }

    async fn files_changed(&mut self) -> bool {
        if !self.send(self.hub.files_message()).await {
            return false;
        }
        match self.open.clone() {
            Some(name) if !self.hub.scan().listed.contains_key(&name) => {
                self.open = None;
                self.send(json!({"type": "gone", "path": name}).to_string()).await
            }
            _ => true,
        }
    }

    /// Sends the open source's `file` message (or `gone`).
    async fn send_open(&mut self) -> bool {
        let Some(name) = self.open.clone() else {
            return true;
        };
        match self.hub.entry(&name).await {
            Some(entry) => self.send(entry.text.clone()).await,
            None => {
                self.open = None;
                self.send(json!({"type": "gone", "path": name}).to_string()).await
            }
        }
    }

    /// Answers one message of the page; false when the page is gone.
    async fn request(&mut self, text: &str) -> bool {
        let Ok(message) = serde_json::from_str::<Value>(text) else {
            return self.error("a message is not JSON").await;
        };
        match message["type"].as_str() {
            Some("open") => {
                let Some(path) = message["path"].as_str() else {
                    return self.error("`open` needs a `path`").await;
                };
                if !self.hub.scan().listed.contains_key(path) {
                    return self.send(json!({"type": "gone", "path": path}).to_string()).await;
                }
                self.stop_run();
                self.open = Some(path.to_string());
                self.send_open().await
            }
            Some("frame") => self.picture(&message).await,
            Some("run") => self.start_run(&message).await,
            Some("stop") => self.stop(message["run"].as_u64()).await,
            _ => self.error("unknown message type").await,
        }
    }

    /// The open source's entry, when `message` names it and it assembled.
    async fn program_for(&self, message: &Value) -> Result<Arc<Entry>, &'static str> {
        let path = message["path"].as_str().ok_or("the request needs a `path`")?;
        if self.open.as_deref() != Some(path) {
            return Err("the request is for a source the page does not show");
        }
        let entry = self.hub.entry(path).await.ok_or("the source is gone")?;
        if entry.checked.program.is_none() {
            return Err("the source has errors");
        }
        Ok(entry)
    }

    async fn picture(&mut self, message: &Value) -> bool {
        let seq = message["seq"].as_u64().unwrap_or(0) as u32;
        let failed = move |report: String| {
            json!({"type": "frame_error", "seq": seq, "report": report, "diagnostics": []}).to_string()
        };
        let entry = match self.program_for(message).await {
            Ok(entry) => entry,
            Err(why) => return self.send(failed(escape(why))).await,
        };
        let options = match self.page_options(&message["options"]) {
            Ok(options) => options,
            Err(why) => return self.send(failed(why)).await,
        };
        let side = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok());
        let (Some(width), Some(height)) = (side(&message["width"]), side(&message["height"])) else {
            return self
                .send(failed(escape("`width` and `height` must be whole numbers of pixels")))
                .await;
        };
        let request = PictureRequest {
            time: message["time"].as_f64().map_or(0.0, |t| t as f32),
            width,
            height,
            options,
        };
        if !request.time.is_finite() {
            return self.send(failed(escape("the time must be a finite number"))).await;
        }
        if self.pending_pictures.fetch_add(1, Ordering::SeqCst) >= MAX_PENDING_PICTURES {
            self.pending_pictures.fetch_sub(1, Ordering::SeqCst);
            return self
                .send(failed(escape("busy: the page waits for pictures already")))
                .await;
        }
        let hub = self.hub.clone();
        let out = self.out.clone();
        let pending = self.pending_pictures.clone();
        tokio::spawn(async move {
            let Ok(_permit) = hub.renders.acquire().await else {
                return;
            };
            let started = std::time::Instant::now();
            let render_hub = hub.clone();
            let rendered = tokio::task::spawn_blocking(move || {
                let program = entry.checked.program.as_ref().expect("checked above");
                live::picture(
                    render_hub.registry,
                    entry.listed.target,
                    program,
                    &render_hub.pictures,
                    &request,
                )
            })
            .await;
            pending.fetch_sub(1, Ordering::SeqCst);
            let message = match rendered {
                Ok(Ok(picture)) => {
                    let place = ["cpu", "gpu", "native"][usize::from(picture.place.min(2))];
                    let stats = json!({
                        "type": "frame_stats",
                        "seq": seq,
                        "render_ms": started.elapsed().as_secs_f64() * 1000.0,
                        "where": place,
                    });
                    if out.send(Message::Text(stats.to_string().into())).await.is_err() {
                        return;
                    }
                    Message::Binary(picture.message(seq).into())
                }
                Ok(Err(failure)) => Message::Text(
                    json!({"type": "frame_error", "seq": seq, "report": failure.report, "diagnostics": failure.diagnostics})
                        .to_string()
                        .into(),
                ),
                Err(_) => Message::Text(failed(escape("the picture failed inside polyasm")).into()),
            };
            let _ = out.send(message).await;
        });
        true
    }

    /// The page's options, each texture naming a picture the page lists; else the report of
    /// why not.
    fn page_options(&self, value: &Value) -> Result<Vec<(String, String)>, String> {
        let scan = self.hub.scan();
        live::textures(option_pairs(value), |name| scan.pictures.get(name).cloned()).map_err(|d| {
            let (report, _) = crate::check::report(self.hub.registry, &polyasm_core::SourceMap::new(), &[*d], 0);
            report
        })
    }

    fn stop_run(&mut self) {
        if let Some(run) = self.run.take() {
            run.stop.store(true, Ordering::Relaxed);
            run.settled.store(true, Ordering::SeqCst);
        }
    }

    async fn start_run(&mut self, message: &Value) -> bool {
        let number = message["run"].as_u64().unwrap_or(0);
        let ended = |status: &str, report: String| {
            json!({"type": "run_end", "run": number, "status": status, "report": report, "diagnostics": []}).to_string()
        };
        let entry = match self.program_for(message).await {
            Ok(entry) => entry,
            Err(why) => return self.send(ended("error", escape(why))).await,
        };
        let options = match self.page_options(&message["options"]) {
            Ok(options) => options,
            Err(report) => return self.send(ended("error", report)).await,
        };
        // A new run of the page replaces the one going on.
        self.stop_run();
        if self.hub.runs.fetch_add(1, Ordering::SeqCst) >= MAX_RUNS {
            self.hub.runs.fetch_sub(1, Ordering::SeqCst);
            return self
                .send(ended("busy", escape("busy: other runs are going on; try again")))
                .await;
        }
        let run = Run {
            number,
            stop: Arc::new(AtomicBool::new(false)),
            settled: Arc::new(AtomicBool::new(false)),
        };
        let (stop, settled) = (run.stop.clone(), run.settled.clone());
        self.run = Some(run);
        let request = RunRequest {
            stdin: message["stdin"].as_str().unwrap_or("").as_bytes().to_vec(),
            options,
        };
        let hub = self.hub.clone();
        let out = self.out.clone();
        // A thread of its own: a run may take seconds, and a page that does not read its output
        // holds up only this thread.
        let spawned = std::thread::Builder::new()
            .name("polyasm-run".to_string())
            .spawn(move || {
                let mut send = |text: String| {
                    let message = json!({"type": "run_output", "run": number, "text": text}).to_string();
                    out.blocking_send(Message::Text(message.into())).is_ok()
                };
                let mut stream = live::Stream::new(&mut send, stop);
                let program = entry.checked.program.as_ref().expect("checked above");
                let mut end = live::run(hub.registry, entry.listed.target, program, &request, &mut stream);
                drop(stream);
                // Unless the page was told already that the run stopped.
                if !settled.swap(true, Ordering::SeqCst) {
                    end["run"] = json!(number);
                    let _ = out.blocking_send(Message::Text(end.to_string().into()));
                }
                hub.runs.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            self.run = None;
            self.hub.runs.fetch_sub(1, Ordering::SeqCst);
            return self
                .send(ended("busy", escape("busy: no thread for the run; try again")))
                .await;
        }
        true
    }

    /// Stops the page's run: its output ends at once, and the page hears `stopped` now; a
    /// program that computes without writing runs on unseen until its step limit.
    async fn stop(&mut self, number: Option<u64>) -> bool {
        let Some(run) = self.run.as_ref().filter(|r| Some(r.number) == number) else {
            return true;
        };
        run.stop.store(true, Ordering::Relaxed);
        if run.settled.swap(true, Ordering::SeqCst) {
            return true;
        }
        let end = json!({
            "type": "run_end",
            "run": run.number,
            "status": "stopped",
            "report": "",
            "diagnostics": [],
            "steps": null,
            "state": null,
        });
        self.send(end.to_string()).await
    }
}

/// A run of the page's going on: its number, the flag that stops its output, and whether the
/// page was told it ended.
struct Run {
    number: u64,
    stop: Arc<AtomicBool>,
    settled: Arc<AtomicBool>,
}

/// `[["long", "value"], ...]` from the page, anything else passed over.
fn option_pairs(value: &Value) -> Vec<(String, String)> {
    value
        .as_array()
        .map(|pairs| {
            pairs
                .iter()
                .take(256)
                .filter_map(|pair| {
                    let long = pair.get(0)?.as_str()?;
                    let text = match pair.get(1) {
                        Some(Value::String(s)) => s.clone(),
                        Some(Value::Number(n)) => n.to_string(),
                        None | Some(Value::Null) => String::new(),
                        _ => return None,
                    };
                    Some((long.to_string(), text))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::names_this_server;

    #[test]
    fn only_addresses_and_localhost_with_the_port_name_the_server() {
        for good in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
            "127.0.0.2:8000",
        ] {
            assert!(names_this_server(good, 8000, false), "{good}");
            assert!(names_this_server(good, 8000, true), "{good}");
        }
        // Another machine's address: only when serving other machines.
        assert!(!names_this_server("192.168.1.7:8000", 8000, false));
        assert!(names_this_server("192.168.1.7:8000", 8000, true));
        for bad in [
            "127.0.0.1:8001",
            "127.0.0.1",
            "evil.example:8000",
            "localhost.evil.example:8000",
            "127.0.0.1.nip.io:8000",
            ":8000",
            "[::1:8000",
            "127.0.0.1:08000x",
        ] {
            assert!(!names_this_server(bad, 8000, true), "{bad}");
        }
    }
}
