//! `polyasm serve`: a local web page that shows every source under the folders given, live.
//!
//! For each source the page shows the diagnostics as the terminal does, the listing, and the
//! target's panel: shader-asm's animated picture, Lima's picture and one fragment, a Masfix
//! run, a vertex program's outputs. Files are watched; on every save the page updates over a
//! WebSocket. docs/serve.md describes the page, its protocol and its limits.
//!
//! The server holds one tokio runtime: the HTTP server (axum), the pages' connections and the
//! watcher's news run on it; checks and pictures run on its blocking threads, and each run on
//! a thread of its own, so that nothing a program does holds up the pages.
//!
//! [`bind`] lists the sources and listens; [`Bound::serve`] then serves until the process
//! ends.
//!
//! ```
//! use polyasm_serve::{bind, Device, Settings};
//!
//! let folder = tempfile::tempdir().unwrap();
//! std::fs::write(folder.path().join("wave.vu"), "ld r0 0\nst pos r0\n").unwrap();
//! let settings = Settings {
//!     paths: vec![folder.path().to_path_buf()],
//!     host: None,
//!     port: 0, // any free port
//!     device: Device::Cpu,
//! };
//! let bound = bind(polyasm::registry(), &settings).expect("a free port on loopback");
//! assert!(bound.url().starts_with("http://127.0.0.1:"));
//! assert_eq!(bound.listed(), (1, false));
//! // `bound.serve()` would now serve the page until the process ends.
//! ```

#![warn(missing_docs)]

pub mod check;
pub mod gpu;
pub mod html;
pub mod hub;
pub mod live;
pub mod picture;
pub mod server;
pub mod sources;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use polyasm_core::Registry;

pub use gpu::Device;

/// What `polyasm serve` was asked for.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Files and folders to list.
    pub paths: Vec<PathBuf>,
    /// The address to listen on: loopback unless given.
    pub host: Option<IpAddr>,
    /// The port; 0 picks a free one.
    pub port: u16,
    /// Where shader pictures are rendered.
    pub device: Device,
}

/// How long the watcher waits for a burst of events (an editor's save) to end.
pub const QUIET: Duration = Duration::from_millis(15);

/// The longest a burst of events is gathered before the page hears of it.
pub const MOST_WAIT: Duration = Duration::from_millis(60);

/// The most events of one burst kept; past it, the burst is a change of everything.
const MAX_BATCH: usize = 10_000;

/// Why the server could not start.
#[derive(Debug)]
pub enum StartError {
    /// A path given is not there or not a file or folder.
    Path(String),
    /// The address could not be listened on.
    Bind(SocketAddr, std::io::Error),
    /// The runtime or the watcher could not start.
    Start(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Path(why) => write!(f, "cannot serve {why}"),
            StartError::Bind(address, e) => {
                write!(f, "cannot listen on {address}: {}", polyasm_core::fs::reason(e))
            }
            StartError::Start(why) => write!(f, "cannot start the server: {why}"),
        }
    }
}

/// A server listening, before it serves: its address and what it lists.
pub struct Bound {
    runtime: tokio::runtime::Runtime,
    listener: tokio::net::TcpListener,
    hub: Arc<Hub>,
    /// The address listened on, with the port picked when 0 was asked.
    pub address: SocketAddr,
}

use hub::Hub;

impl Bound {
    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", host_port(self.address))
    }

    /// How many sources are listed, and whether the list was cut at its limit.
    pub fn listed(&self) -> (usize, bool) {
        let scan = self.hub.scan();
        (scan.listed.len(), scan.cut)
    }

    /// Serves until the process ends.
    pub fn serve(self) -> Result<(), StartError> {
        let Bound {
            runtime, listener, hub, ..
        } = self;
        runtime.block_on(async move {
            let app = server::router(hub);
            axum::serve(listener, app)
                .await
                .map_err(|e| StartError::Start(e.to_string()))
        })
    }
}

/// `address` as a URL's host and port (`127.0.0.1:8000`, `[::1]:8000`).
fn host_port(address: SocketAddr) -> String {
    match address.ip() {
        IpAddr::V6(ip) => format!("[{ip}]:{}", address.port()),
        IpAddr::V4(ip) => format!("{ip}:{}", address.port()),
    }
}

/// Lists the sources, starts the watcher and listens; [`Bound::serve`] then serves.
pub fn bind(registry: &'static Registry, settings: &Settings) -> Result<Bound, StartError> {
    let mut roots = Vec::new();
    for path in &settings.paths {
        roots.push(sources::Root::new(path).map_err(StartError::Path)?);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(8)
        .enable_all()
        .thread_name("polyasm-serve")
        .build()
        .map_err(|e| StartError::Start(e.to_string()))?;
    let address = SocketAddr::new(settings.host.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST)), settings.port);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .map_err(|e| StartError::Bind(address, e))?;
    let address = listener.local_addr().map_err(|e| StartError::Bind(address, e))?;
    let hub = Arc::new(Hub::new(
        registry,
        roots,
        gpu::Pictures::new(settings.device),
        address.port(),
        !address.ip().is_loopback(),
    ));
    watch(&hub, runtime.handle().clone()).map_err(StartError::Start)?;
    Ok(Bound {
        runtime,
        listener,
        hub,
        address,
    })
}

/// Watches the folders served (and the folders of the files given), and hands each burst of
/// changes to the hub from a thread of its own.
fn watch(hub: &Arc<Hub>, runtime: tokio::runtime::Handle) -> Result<(), String> {
    use notify::Watcher as _;
    let (events, news) = std::sync::mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(move |event| {
        let _ = events.send(event);
    })
    .map_err(|e| format!("cannot watch files: {e}"))?;
    for root in &hub.roots {
        let (dir, mode) = if root.is_folder {
            (root.given.clone(), notify::RecursiveMode::Recursive)
        } else {
            let dir = root.given.parent().filter(|d| !d.as_os_str().is_empty());
            (
                dir.map_or_else(|| PathBuf::from("."), PathBuf::from),
                notify::RecursiveMode::NonRecursive,
            )
        };
        watcher
            .watch(&dir, mode)
            .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
    }
    *hub.watcher.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(watcher);
    let hub = Arc::downgrade(hub);
    std::thread::Builder::new()
        .name("polyasm-watch".to_string())
        .spawn(move || {
            while let Ok(first) = news.recv() {
                let started = Instant::now();
                let mut batch = vec![first];
                let mut lost = false;
                loop {
                    let left = MOST_WAIT.saturating_sub(started.elapsed());
                    match news.recv_timeout(QUIET.min(left)) {
                        Ok(event) if batch.len() < MAX_BATCH => batch.push(event),
                        // Too many to keep: the batch counts as a change of everything.
                        Ok(_) => lost = true,
                        Err(_) => break,
                    }
                    if started.elapsed() >= MOST_WAIT {
                        break;
                    }
                }
                let mut paths = Vec::new();
                let mut structural = lost;
                for event in batch {
                    match event {
                        // Reading a file is no change (the checks read the files they watch),
                        // but the end of a write is.
                        Ok(event)
                            if matches!(event.kind, notify::EventKind::Access(_))
                                && event.kind
                                    != notify::EventKind::Access(notify::event::AccessKind::Close(
                                        notify::event::AccessMode::Write,
                                    )) => {}
                        Ok(event) => {
                            structural |= !matches!(
                                event.kind,
                                notify::EventKind::Modify(notify::event::ModifyKind::Data(_))
                                    | notify::EventKind::Access(_)
                            );
                            paths.extend(event.paths);
                        }
                        // The watcher lost events: look at everything again.
                        Err(_) => structural = true,
                    }
                }
                if paths.is_empty() && !structural {
                    continue;
                }
                paths.sort();
                paths.dedup();
                let Some(hub) = hub.upgrade() else {
                    break;
                };
                runtime.block_on(hub.changed(paths, structural));
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(())
}
