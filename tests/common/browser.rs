//! A headless Chromium driven over the DevTools protocol, for the tests of pages that polyasm
//! serves: open a page, wait for what it shows, run JavaScript in it, read its pixels.
//!
//! Everything here waits with a deadline: a browser that dies or stops answering makes the test
//! fail with what was last seen, never hang.

use std::cell::RefCell;
use std::ffi::OsString;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// How long Chromium may take to start, or to answer one command, before the test fails.
pub const BROWSER_PATIENCE: Duration = Duration::from_secs(30);

/// How often a wait looks again, and how long one read of the socket blocks before the wait
/// checks that Chromium is still running.
const POLL: Duration = Duration::from_millis(50);
const READ_SLICE: Duration = Duration::from_millis(250);

const INSTALL: &str = "install Debian's `chromium` package (`apt-get install chromium`) \
                       or set POLYASM_CHROMIUM to a Chromium or Chrome executable";

const FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--remote-debugging-port=0",
];

/// The browser to run: POLYASM_CHROMIUM, else /usr/bin/chromium, else the first of chromium,
/// chromium-browser and google-chrome on PATH.
pub fn find_chromium() -> Result<PathBuf, String> {
    locate_chromium(
        std::env::var_os("POLYASM_CHROMIUM"),
        std::env::var_os("PATH"),
        &[Path::new("/usr/bin/chromium")],
    )
}

/// [`find_chromium`] with its inputs given: the variable's value, PATH's, and the fixed places.
pub fn locate_chromium(explicit: Option<OsString>, path: Option<OsString>, fixed: &[&Path]) -> Result<PathBuf, String> {
    let path = path.unwrap_or_default();
    let on_path = |name: &OsString| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    };
    if let Some(explicit) = explicit.filter(|value| !value.is_empty()) {
        let found = if Path::new(&explicit).components().count() > 1 {
            Some(PathBuf::from(&explicit)).filter(|p| is_executable(p))
        } else {
            on_path(&explicit)
        };
        return found.ok_or_else(|| {
            format!(
                "POLYASM_CHROMIUM is {}, which is no executable file; {INSTALL}",
                Path::new(&explicit).display()
            )
        });
    }
    if let Some(place) = fixed.iter().find(|place| is_executable(place)) {
        return Ok(place.to_path_buf());
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| on_path(&OsString::from(name)))
        .ok_or_else(|| {
            format!(
                "no Chromium found (POLYASM_CHROMIUM is unset, and neither {} nor chromium, \
                 chromium-browser or google-chrome on PATH is there); {INSTALL}",
                fixed
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// The Chromium process with its own process group, so that its helpers go with it, and the
/// directory holding its profile and its output. Dropping it kills them all and removes the
/// directory, also while a failing test unwinds.
struct Process {
    child: Child,
    program: PathBuf,
    dir: tempfile::TempDir,
}

impl Process {
    /// Why Chromium is not running any more, or `None` while it runs.
    fn gone(&mut self) -> Option<String> {
        let status = match self.child.try_wait() {
            Ok(None) => return None,
            Ok(Some(status)) => status.to_string(),
            Err(error) => format!("cannot be waited for ({error})"),
        };
        Some(format!(
            "Chromium ({}) is gone: {status}{}",
            self.program.display(),
            self.output_tail()
        ))
    }

    /// The end of what Chromium printed, for the messages of a failure.
    fn output_tail(&self) -> String {
        let output = std::fs::read(self.dir.path().join("output")).unwrap_or_default();
        let output = String::from_utf8_lossy(&output);
        let lines: Vec<&str> = output.lines().collect();
        match lines.len() {
            0 => String::new(),
            n => format!("; its last output:\n{}", lines[n.saturating_sub(12)..].join("\n")),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // The group's id is the child's pid, kept from reuse while any of the group lives.
        // SAFETY: kill() only sends a signal.
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running headless Chromium and the DevTools connection to it.
pub struct Browser {
    socket: RefCell<Socket>,
    process: RefCell<Process>,
    port: u16,
}

impl Browser {
    /// Starts the Chromium that [`find_chromium`] finds.
    pub fn launch() -> Result<Browser, String> {
        Browser::launch_program(&find_chromium()?, BROWSER_PATIENCE)
    }

    /// Starts `program` as a headless Chromium with a fresh profile, waiting at most `patience`
    /// for its DevTools port.
    pub fn launch_program(program: &Path, patience: Duration) -> Result<Browser, String> {
        let deadline = Instant::now() + patience;
        let dir = tempfile::Builder::new()
            .prefix("polyasm-chromium-")
            .tempdir()
            .map_err(|e| format!("cannot make a directory for Chromium: {e}"))?;
        let profile = dir.path().join("profile");
        // Chromium leaves files in its temporary directory when it is killed, and writes crash
        // reports and caches under the user's configuration and cache: all go in ours.
        let mut homes = Vec::new();
        for (variable, name) in [
            ("TMPDIR", "tmp"),
            ("XDG_CONFIG_HOME", "config"),
            ("XDG_CACHE_HOME", "cache"),
        ] {
            let home = dir.path().join(name);
            std::fs::create_dir(&home).map_err(|e| format!("cannot make a directory for Chromium: {e}"))?;
            homes.push((variable, home));
        }
        let output = std::fs::File::create(dir.path().join("output"))
            .map_err(|e| format!("cannot make a file for Chromium's output: {e}"))?;
        let mut command = Command::new(program);
        command
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .envs(homes)
            .stdin(Stdio::null())
            .stdout(output.try_clone().map_err(|e| e.to_string())?)
            .stderr(output);
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}; {INSTALL}", program.display()))?;
        let mut process = Process {
            child,
            program: program.to_path_buf(),
            dir,
        };

        let port_file = profile.join("DevToolsActivePort");
        let (port, path) = loop {
            // The file holds the port, then the browser's WebSocket path; it may be half written.
            let text = std::fs::read_to_string(&port_file).unwrap_or_default();
            let mut lines = text.lines();
            if let (Some(Ok(port)), Some(path)) = (lines.next().map(str::parse::<u16>), lines.next())
                && path.starts_with("/devtools/")
            {
                break (port, path.to_owned());
            }
            if let Some(why) = process.gone() {
                return Err(format!("{why}\n(it exited before opening its DevTools port)"));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "Chromium ({}) wrote no {} within {patience:?}{}",
                    program.display(),
                    port_file.display(),
                    process.output_tail()
                ));
            }
            std::thread::sleep(POLL);
        };
        let process = RefCell::new(process);
        let alive = || process.borrow_mut().gone().map_or(Ok(()), Err);
        let left = deadline.saturating_duration_since(Instant::now()).max(POLL);
        let socket = Socket::connect(port, &path, left, &alive)?;
        Ok(Browser {
            socket: RefCell::new(socket),
            process,
            port,
        })
    }

    /// The id of Chromium's main process, which leads the process group of all of its own.
    pub fn pid(&self) -> u32 {
        self.process.borrow().child.id()
    }

    /// The directory holding Chromium's profile; it is removed when the browser is dropped.
    pub fn dir(&self) -> PathBuf {
        self.process.borrow().dir.path().to_path_buf()
    }

    /// An error saying why Chromium stopped, if it did.
    fn alive(&self) -> Result<(), String> {
        self.process.borrow_mut().gone().map_or(Ok(()), Err)
    }

    /// Sends a command to the browser itself (not to a page) and returns its result.
    pub fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        self.socket
            .borrow_mut()
            .call(method, params, BROWSER_PATIENCE, &|| self.alive())
    }

    /// Opens `url` in a new tab and waits until it has loaded.
    pub fn page(&self, url: &str) -> Result<Page<'_>, String> {
        let target = self.call("Target.createTarget", json!({ "url": "about:blank" }))?;
        let target = target["targetId"]
            .as_str()
            .ok_or_else(|| format!("Target.createTarget answered no targetId: {target}"))?
            .to_owned();
        let path = format!("/devtools/page/{target}");
        let socket = Socket::connect(self.port, &path, BROWSER_PATIENCE, &|| self.alive());
        let socket = match socket {
            Ok(socket) => socket,
            Err(error) => {
                let _ = self.call("Target.closeTarget", json!({ "targetId": target }));
                return Err(error);
            }
        };
        let page = Page {
            browser: self,
            socket: RefCell::new(socket),
            target,
        };
        page.call("Page.enable", json!({}))?;
        page.call("Page.setLifecycleEventsEnabled", json!({ "enabled": true }))?;
        page.call("Runtime.enable", json!({}))?;
        page.call("Log.enable", json!({}))?;
        page.goto(url)?;
        Ok(page)
    }
}

/// One tab, with its own DevTools connection. It is closed when dropped.
pub struct Page<'b> {
    browser: &'b Browser,
    socket: RefCell<Socket>,
    target: String,
}

impl Page<'_> {
    /// Sends a command to this page and returns its result.
    pub fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        self.call_within(method, params, BROWSER_PATIENCE)
    }

    fn call_within(&self, method: &str, params: Value, patience: Duration) -> Result<Value, String> {
        self.socket
            .borrow_mut()
            .call(method, params, patience, &|| self.browser.alive())
    }

    /// Goes to `url` and waits for its load event.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        let deadline = Instant::now() + BROWSER_PATIENCE;
        let answer = self.call("Page.navigate", json!({ "url": url }))?;
        if let Some(error) = answer["errorText"].as_str() {
            return Err(format!("cannot open {url}: {error}"));
        }
        // A move within the same document has no loader and no load event.
        let Some(loader) = answer["loaderId"].as_str() else {
            return Ok(());
        };
        let mut socket = self.socket.borrow_mut();
        while !socket.loaded.iter().any(|done| done == loader) {
            socket
                .next_message(deadline, &|| self.browser.alive())
                .map_err(|e| format!("waiting for {url} to load: {e}"))?
                .ok_or_else(|| format!("{url} did not load within {BROWSER_PATIENCE:?}"))?;
        }
        Ok(())
    }

    /// The value of a JavaScript expression, awaited if it is a promise. What it throws, or the
    /// promise's rejection, is the error.
    pub fn eval(&self, js: &str) -> Result<Value, String> {
        let remote = self.evaluate(js, BROWSER_PATIENCE)??;
        Ok(value_of(&remote))
    }

    /// Evaluates `js` as [`Page::eval`] does: the outer error is the browser's failure, the
    /// inner one what the script threw. The value is the protocol's RemoteObject.
    fn evaluate(&self, js: &str, patience: Duration) -> Result<Result<Value, String>, String> {
        let params = json!({
            "expression": js,
            "returnByValue": true,
            "awaitPromise": true,
            "userGesture": true,
        });
        let answer = self.call_within("Runtime.evaluate", params, patience)?;
        Ok(match answer.get("exceptionDetails") {
            Some(details) => Err(exception_text(details)),
            None => Ok(answer["result"].clone()),
        })
    }

    /// Evaluates `js_predicate` until its value is truthy and returns that value. A predicate
    /// that throws, or that finds no document (the page is loading), has not come true yet. On
    /// timeout the error tells the last value and the page's text; a dead browser or a crashed
    /// page ends the wait at once.
    pub fn wait_for(&self, js_predicate: &str, timeout: Duration) -> Result<Value, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let patience = left.clamp(POLL * 10, BROWSER_PATIENCE);
            let (last, ended) = match self.evaluate(js_predicate, patience) {
                Ok(Ok(remote)) if truthy(&remote) => return Ok(value_of(&remote)),
                Ok(Ok(remote)) => (format!("its last value was {}", value_of(&remote)), false),
                Ok(Err(thrown)) => (format!("it last threw {thrown}"), false),
                Err(failed) => {
                    let ended = self.browser.alive().is_err() || self.socket.borrow().ended.is_some();
                    (format!("it last failed: {failed}"), ended)
                }
            };
            if left.is_zero() || ended {
                return Err(format!(
                    "`{js_predicate}` did not come true within {timeout:?}: {last}\n{}",
                    self.body_text()
                ));
            }
            std::thread::sleep(POLL.min(left));
        }
    }

    /// The page's `document.body.innerText` cut to 2,000 characters, for failure messages.
    fn body_text(&self) -> String {
        let js = "document.body ? document.body.innerText : '(the page has no body)'";
        match self.evaluate(js, Duration::from_secs(2)) {
            Ok(Ok(remote)) => {
                let text = value_of(&remote);
                let text = text.as_str().unwrap_or_default();
                let cut: String = text.chars().take(2000).collect();
                let more = if cut.len() < text.len() { "\n[...]" } else { "" };
                format!("the page's text:\n{cut}{more}")
            }
            Ok(Err(thrown)) => format!("the page's text cannot be read: {thrown}"),
            Err(broken) => format!("the page's text cannot be read: {broken}"),
        }
    }

    /// Makes the page `width` by `height` CSS pixels at one device pixel each, so that
    /// screenshots have that size.
    pub fn set_viewport(&self, width: u32, height: u32) -> Result<(), String> {
        let params = json!({
            "width": width,
            "height": height,
            "deviceScaleFactor": 1,
            "mobile": false,
        });
        self.call("Emulation.setDeviceMetricsOverride", params).map(drop)
    }

    /// A PNG of what the viewport shows.
    pub fn screenshot_png(&self) -> Result<Vec<u8>, String> {
        let answer = self.call("Page.captureScreenshot", json!({ "format": "png" }))?;
        let data = answer["data"]
            .as_str()
            .ok_or("Page.captureScreenshot answered no data")?;
        data_encoding::BASE64
            .decode(data.as_bytes())
            .map_err(|e| format!("the screenshot is not base64: {e}"))
    }

    /// The uncaught exceptions, unhandled rejections, `console.error` and `console.assert`
    /// failures and browser-logged errors (a resource that failed to load) of this page so far,
    /// one text each.
    pub fn console_errors(&self) -> Result<Vec<String>, String> {
        // Whatever the page reported before this answer arrives before it.
        self.call("Runtime.evaluate", json!({ "expression": "0" }))?;
        Ok(self.socket.borrow().errors.clone())
    }
}

impl Drop for Page<'_> {
    fn drop(&mut self) {
        if let Ok(mut socket) = self.socket.try_borrow_mut() {
            let _ = socket.ws.close(None);
        }
        if let Ok(mut socket) = self.browser.socket.try_borrow_mut() {
            let params = json!({ "targetId": self.target });
            let _ = socket.call("Target.closeTarget", params, Duration::from_secs(2), &|| {
                self.browser.alive()
            });
        }
    }
}

/// A RemoteObject's value as JSON: `undefined` is null, and what JSON cannot hold (NaN,
/// Infinity, -0, a BigInt) is the text that JavaScript would print.
fn value_of(remote: &Value) -> Value {
    match remote.get("unserializableValue").and_then(Value::as_str) {
        Some(text) => Value::String(text.to_owned()),
        None => remote.get("value").cloned().unwrap_or(Value::Null),
    }
}

/// Whether JavaScript would take the RemoteObject as true.
fn truthy(remote: &Value) -> bool {
    let unserializable = remote["unserializableValue"].as_str();
    match remote["type"].as_str() {
        Some("undefined") => false,
        Some("boolean") => remote["value"] == true,
        Some("number") => match unserializable {
            Some(text) => text.contains("Infinity"),
            None => remote["value"].as_f64().is_some_and(|n| n != 0.0),
        },
        Some("string") => remote["value"].as_str().is_some_and(|s| !s.is_empty()),
        Some("bigint") => unserializable != Some("0n"),
        Some("object") => remote["subtype"] != "null",
        _ => true,
    }
}

/// An exception as the console would show it: its description (message and stack) when it has
/// one, else the protocol's text.
fn exception_text(details: &Value) -> String {
    let exception = &details["exception"];
    let description = exception["description"]
        .as_str()
        .map(str::to_owned)
        .or_else(|| exception.get("value").map(|v| v.to_string()));
    let text = details["text"].as_str().unwrap_or("exception");
    match description {
        // The text may already hold the description's first line, the message.
        Some(description) => match description.split_once('\n') {
            _ if !text.contains(description.lines().next().unwrap_or_default()) => {
                format!("{text}: {description}")
            }
            Some((_, stack)) => format!("{text}\n{stack}"),
            None => text.to_owned(),
        },
        None => text.to_owned(),
    }
}

/// The error of a connection that broke: Chromium's end when it is dying (its sockets close a
/// moment before it can be waited for), else `error`.
fn broken(alive: &dyn Fn() -> Result<(), String>, error: String) -> String {
    let deadline = Instant::now() + Duration::from_secs(1);
    while Instant::now() < deadline {
        if let Err(why) = alive() {
            return format!("{why}\n({error})");
        }
        std::thread::sleep(POLL);
    }
    error
}

/// One DevTools WebSocket connection, and what its events have told so far.
struct Socket {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// The loaders whose document has fired its load event.
    loaded: Vec<String>,
    /// The page's errors, as [`Page::console_errors`] gives them.
    errors: Vec<String>,
    /// Why the target can answer no more (it crashed or was detached), once it cannot.
    ended: Option<String>,
}

impl Socket {
    fn connect(
        port: u16,
        path: &str,
        patience: Duration,
        alive: &dyn Fn() -> Result<(), String>,
    ) -> Result<Socket, String> {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let url = format!("ws://{address}{path}");
        let failed = |e: &dyn std::fmt::Display| {
            let why = alive().err().map(|why| format!("\n{why}")).unwrap_or_default();
            format!("cannot connect to Chromium's DevTools at {url}: {e}{why}")
        };
        let stream = TcpStream::connect_timeout(&address, patience).map_err(|e| failed(&e))?;
        stream.set_read_timeout(Some(patience)).map_err(|e| failed(&e))?;
        stream.set_write_timeout(Some(patience)).map_err(|e| failed(&e))?;
        stream.set_nodelay(true).map_err(|e| failed(&e))?;
        // Screenshots of a large page come as one big message.
        let config = WebSocketConfig::default()
            .max_message_size(Some(512 << 20))
            .max_frame_size(Some(512 << 20));
        let (ws, _) =
            tungstenite::client::client_with_config(url.as_str(), stream, Some(config)).map_err(|e| failed(&e))?;
        Ok(Socket {
            ws,
            next_id: 1,
            loaded: Vec::new(),
            errors: Vec::new(),
            ended: None,
        })
    }

    /// Sends a command and reads until its answer, taking in the events that come before it.
    fn call(
        &mut self,
        method: &str,
        params: Value,
        patience: Duration,
        alive: &dyn Fn() -> Result<(), String>,
    ) -> Result<Value, String> {
        let deadline = Instant::now() + patience;
        if let Some(why) = &self.ended {
            return Err(format!("{method}: {why}"));
        }
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({ "id": id, "method": method, "params": params });
        if let Err(error) = self.ws.send(Message::text(message.to_string())) {
            let error = broken(alive, format!("cannot send it to Chromium: {error}"));
            return Err(format!("{method}: {error}"));
        }
        loop {
            let message = self
                .next_message(deadline, alive)
                .map_err(|e| format!("{method}: {e}"))?
                .ok_or_else(|| format!("{method}: Chromium gave no answer within {patience:?}"))?;
            if message["id"] != id {
                continue;
            }
            return match message.get("error") {
                Some(error) => Err(format!("{method} failed: {error}")),
                None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
            };
        }
    }

    /// The next message, an answer or an event, or `None` once the deadline has passed; an
    /// event is taken in before it is returned.
    fn next_message(
        &mut self,
        deadline: Instant,
        alive: &dyn Fn() -> Result<(), String>,
    ) -> Result<Option<Value>, String> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                alive()?;
                return Ok(None);
            }
            let slice = left.min(READ_SLICE);
            self.ws
                .get_mut()
                .set_read_timeout(Some(slice))
                .map_err(|e| e.to_string())?;
            match self.ws.read() {
                Ok(Message::Text(text)) => {
                    let message: Value = serde_json::from_str(text.as_str())
                        .map_err(|e| format!("Chromium sent what is not JSON ({e}): {text}"))?;
                    self.take_in(&message);
                    if let Some(why) = &self.ended {
                        return Err(why.clone());
                    }
                    return Ok(Some(message));
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(error))
                    if matches!(
                        error.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    alive()?;
                }
                Err(error) => {
                    return Err(broken(alive, format!("the DevTools connection broke: {error}")));
                }
            }
        }
    }

    /// Notes what an event tells: a load, an error of the page, the end of the target.
    fn take_in(&mut self, message: &Value) {
        let params = &message["params"];
        match message["method"].as_str() {
            Some("Page.lifecycleEvent") if params["name"] == "load" => {
                if let Some(loader) = params["loaderId"].as_str() {
                    self.loaded.push(loader.to_owned());
                }
            }
            Some("Runtime.exceptionThrown") => {
                let details = &params["exceptionDetails"];
                let mut text = exception_text(details);
                if let Some(url) = details["url"].as_str().filter(|url| !url.is_empty()) {
                    let line = details["lineNumber"].as_u64().unwrap_or(0) + 1;
                    text.push_str(&format!(" ({url}:{line})"));
                }
                self.errors.push(text);
            }
            Some("Runtime.consoleAPICalled") if params["type"] == "error" || params["type"] == "assert" => {
                let arguments: Vec<String> = params["args"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|argument| match argument.get("value") {
                        Some(Value::String(text)) => text.clone(),
                        Some(value) => value.to_string(),
                        None => argument["description"]
                            .as_str()
                            .or(argument["unserializableValue"].as_str())
                            .or(argument["type"].as_str())
                            .unwrap_or_default()
                            .to_owned(),
                    })
                    .collect();
                let kind = params["type"].as_str().unwrap_or_default();
                self.errors.push(format!("console.{kind}: {}", arguments.join(" ")));
            }
            // The browser asks every site for a /favicon.ico of its own accord: its absence is
            // not an error of the page.
            Some("Log.entryAdded")
                if params["entry"]["level"] == "error"
                    && !(params["entry"]["source"] == "network"
                        && params["entry"]["url"]
                            .as_str()
                            .is_some_and(|url| url.ends_with("/favicon.ico"))) =>
            {
                let entry = &params["entry"];
                let mut text = format!(
                    "{}: {}",
                    entry["source"].as_str().unwrap_or("log"),
                    entry["text"].as_str().unwrap_or_default()
                );
                if let Some(url) = entry["url"].as_str().filter(|url| !url.is_empty()) {
                    text.push_str(&format!(" ({url})"));
                }
                self.errors.push(text);
            }
            Some("Inspector.targetCrashed") => {
                self.ended = Some("the page crashed".to_owned());
            }
            Some("Inspector.detached") => {
                let reason = params["reason"].as_str().unwrap_or("no reason given");
                self.ended = Some(format!("the page was detached ({reason})"));
            }
            _ => {}
        }
    }
}
