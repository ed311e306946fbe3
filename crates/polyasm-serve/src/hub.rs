//! What every page shares: the listed sources, each opened source checked once per change, and
//! the news of changes, which each page's connection follows.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Instant;

use polyasm_core::Registry;
use serde_json::json;
use tokio::sync::broadcast;

use crate::check::{self, Checked, Listed, canonical};
use crate::gpu::Pictures;
use crate::sources::{self, Root, Scan};

/// The most checked sources kept; the least recently asked for go first.
const MAX_CHECKED: usize = 32;

/// What changed, as each connection hears it.
#[derive(Clone, Debug)]
pub enum Change {
    /// The list of sources.
    Files,
    /// This source was checked again (or vanished).
    File(String),
}

/// A source checked, at a version.
pub struct Entry {
    /// The version of this check, which the page's `file` message carries.
    pub version: u64,
    /// The source.
    pub listed: Listed,
    /// What the check found.
    pub checked: Checked,
    /// The `file` message, as sent.
    pub text: String,
    used: Mutex<Instant>,
}

/// What every page and the watcher share: the sources, their checks, the pictures and the limits.
pub struct Hub {
    /// The targets that check the sources.
    pub registry: &'static Registry,
    /// The files and folders served.
    pub roots: Vec<Root>,
    scan: RwLock<Arc<Scan>>,
    entries: Mutex<HashMap<String, Arc<Entry>>>,
    versions: Mutex<HashMap<String, u64>>,
    /// One check at a time: a burst of pages or saves costs one core, not all.
    checking: tokio::sync::Mutex<()>,
    /// News of changed sources, for every page.
    pub changes: broadcast::Sender<Change>,
    /// The renderers of every page.
    pub pictures: Pictures,
    /// Runs going on, over every page.
    pub runs: AtomicUsize,
    /// Pictures being rendered at once, over every page.
    pub renders: tokio::sync::Semaphore,
    /// Pages connected now.
    pub connections: AtomicUsize,
    /// The port served: requests must name it.
    pub port: u16,
    /// Whether it serves other machines (`--host` other than loopback): then any IP address
    /// with the port names it.
    pub any_address: bool,
    /// Folders watched one level deep (those of files read outside the folders served).
    pub watched: Mutex<HashSet<PathBuf>>,
    /// The file watcher, once started.
    pub watcher: Mutex<Option<notify::RecommendedWatcher>>,
}

impl Hub {
    /// A hub for `roots`, listed by a first scan; requests must name `port`, on loopback or,
    /// with `any_address`, on any address.
    pub fn new(registry: &'static Registry, roots: Vec<Root>, pictures: Pictures, port: u16, any_address: bool) -> Hub {
        let scan = sources::scan(registry, &roots);
        Hub {
            registry,
            roots,
            scan: RwLock::new(Arc::new(scan)),
            entries: Mutex::new(HashMap::new()),
            versions: Mutex::new(HashMap::new()),
            checking: tokio::sync::Mutex::new(()),
            changes: broadcast::channel(64).0,
            pictures,
            runs: AtomicUsize::new(0),
            renders: tokio::sync::Semaphore::new(2),
            connections: AtomicUsize::new(0),
            port,
            any_address,
            watched: Mutex::new(HashSet::new()),
            watcher: Mutex::new(None),
        }
    }

    /// The sources listed now (the last scan of the roots).
    pub fn scan(&self) -> Arc<Scan> {
        self.scan.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The `files` message.
    pub fn files_message(&self) -> String {
        let scan = self.scan();
        let files: Vec<_> = scan
            .listed
            .values()
            .map(|l| {
                json!({
                    "path": l.name,
                    "target": l.target.info().name,
                    "panel": check::panel_of(l.target),
                })
            })
            .collect();
        let pictures: Vec<&String> = scan.pictures.keys().collect();
        json!({"type": "files", "files": files, "pictures": pictures, "cut": scan.cut}).to_string()
    }

    /// The source `name` checked as it is now: from the last check unless it changed since.
    pub async fn entry(self: &Arc<Hub>, name: &str) -> Option<Arc<Entry>> {
        if let Some(entry) = self.cached(name) {
            return Some(entry);
        }
        let listed = self.scan().listed.get(name)?.clone();
        let _one = self.checking.lock().await;
        // Another page may have checked it while this one waited.
        if let Some(entry) = self.cached(name) {
            return Some(entry);
        }
        let hub = Arc::clone(self);
        let (entry, _) = tokio::task::spawn_blocking(move || hub.check_now(listed)).await.ok()?;
        Some(entry)
    }

    fn cached(&self, name: &str) -> Option<Arc<Entry>> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = entries.get(name)?;
        *entry.used.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        Some(entry.clone())
    }

    /// Checks `listed` and keeps the result: its next version, or the same version when the
    /// page would see no difference (a save of the same text, the second event of one save).
    /// Gives the entry and whether it is new to the pages.
    fn check_now(&self, listed: Listed) -> (Arc<Entry>, bool) {
        let checked = check::check(self.registry, &listed);
        self.watch_outside(&checked.read);
        let same = self.cached(&listed.name).is_some_and(|old| {
            old.checked.message == checked.message
                && old.checked.program.as_ref().map(|p| &p.settings) == checked.program.as_ref().map(|p| &p.settings)
        });
        let version = {
            let mut versions = self.versions.lock().unwrap_or_else(PoisonError::into_inner);
            let v = versions.entry(listed.name.clone()).or_insert(0);
            if !same {
                *v += 1;
            }
            *v
        };
        let mut message = checked.message.clone();
        message["version"] = json!(version);
        let entry = Arc::new(Entry {
            version,
            listed,
            text: message.to_string(),
            checked,
            used: Mutex::new(Instant::now()),
        });
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.insert(entry.listed.name.clone(), entry.clone());
        if entries.len() > MAX_CHECKED {
            let oldest = entries
                .iter()
                .min_by_key(|(_, e)| *e.used.lock().unwrap_or_else(PoisonError::into_inner))
                .map(|(name, _)| name.clone());
            if let Some(name) = oldest {
                entries.remove(&name);
            }
        }
        (entry, !same)
    }

    /// Watches the folders of files a check read outside the folders served (included files
    /// and settings files), one level deep.
    fn watch_outside(&self, read: &[PathBuf]) {
        let mut watcher = self.watcher.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(watcher) = watcher.as_mut() else {
            return;
        };
        let mut watched = self.watched.lock().unwrap_or_else(PoisonError::into_inner);
        for path in read {
            if self.roots.iter().any(|r| r.is_folder && path.starts_with(&r.canonical)) {
                continue;
            }
            let Some(dir) = path.parent() else {
                continue;
            };
            if watched.len() < 256 && watched.insert(dir.to_path_buf()) {
                use notify::Watcher as _;
                let _ = watcher.watch(dir, notify::RecursiveMode::NonRecursive);
            }
        }
    }

    /// Takes in a batch of changed paths (`structural`: files may have appeared or vanished, or
    /// events were lost): lists the sources again and checks every kept source again when
    /// structural, else the kept sources that read a changed file, and tells the pages of
    /// those the pages would see differently.
    pub async fn changed(self: &Arc<Hub>, paths: Vec<PathBuf>, structural: bool) {
        if structural {
            let hub = Arc::clone(self);
            let scan = tokio::task::spawn_blocking(move || sources::scan(hub.registry, &hub.roots)).await;
            if let Ok(scan) = scan {
                let names = |scan: &Scan| {
                    let sources = scan.listed.keys().cloned();
                    sources.chain(scan.pictures.keys().cloned()).collect::<Vec<String>>()
                };
                let (before, after) = (names(&self.scan()), names(&scan));
                *self.scan.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(scan);
                if before != after {
                    let _ = self.changes.send(Change::Files);
                }
            }
        }
        let changed: HashSet<PathBuf> = paths.iter().map(|p| canonical(p)).collect();
        let stale: Vec<String> = {
            let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            entries
                .values()
                // A file that appeared may be one a check looked for and did not find (a
                // settings file, an include): every kept source is checked again, and the
                // pages hear only of those that changed.
                .filter(|e| structural || e.checked.read.iter().any(|p| changed.contains(p)))
                .map(|e| e.listed.name.clone())
                .collect()
        };
        let scan = self.scan();
        for name in stale {
            let Some(listed) = scan.listed.get(&name).cloned() else {
                self.entries
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&name);
                let _ = self.changes.send(Change::File(name));
                continue;
            };
            let _one = self.checking.lock().await;
            let hub = Arc::clone(self);
            if let Ok((_, true)) = tokio::task::spawn_blocking(move || hub.check_now(listed)).await {
                let _ = self.changes.send(Change::File(name));
            }
        }
    }
}
