// The page of `polyasm serve`: a file list, the open file's diagnostics, source and listing,
// and a live panel for its dialect, kept up to date over one WebSocket.
//
// Server text reaches the page through textContent and DOM nodes only; the one exception is a
// `report` field, which the server sends as escaped HTML.
'use strict';

// ---------------------------------------------------------------------------------------------
// State read by tests, and the page's own bookkeeping
// ---------------------------------------------------------------------------------------------

const state = {
  connected: false,
  files: [],
  pictures: [],
  open: null,
  fileVersion: null,
  ok: null,
  frames: 0,
  lastFrame: null,
  runs: 0,
  lastRun: null,
};
window.polyasm = state;

const view = {
  socket: null,
  backoff: 500,
  retryTimer: null,
  openSent: false,   // `open` sent on the current connection
  file: null,        // the last `file` message of the open file
  gone: false,       // the open file vanished
  panel: null,       // the live panel object of the open file
  seq: 0,            // last frame request number
  run: 0,            // last run number
  jump: null,        // {path, line} to show once that file arrives
  lines: [],         // the source's line elements
  marked: null,      // the highlighted source line
  known: new Map(),  // path -> whether it assembled when this page last had it open
  inputs: new Map(), // path -> the panel's inputs when it was last closed
};

const SIZES = [[320, 180], [640, 360], [1280, 720], [1920, 1080]];

// Cells per row of the Masfix memory view: room for 5-digit cells, as `--dump-memory` prints.
const MEMORY_COLUMNS = 8;
const MAX_OUTPUT = 1 << 20;
const DEBOUNCE_MS = 150;

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

const $ = (selector) => document.querySelector(selector);

// el('div', {id: 'x', className: 'y', onclick: f}, child, 'text', ...)
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && key !== 'list') node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function baseName(path) {
  return path.slice(path.lastIndexOf('/') + 1);
}

function dirName(path) {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

// Whether two spellings of a path name the same served file ("a/b.vu", "./a/b.vu").
function samePath(a, b) {
  if (!a || !b) return false;
  const clean = (p) => p.replace(/^(\.\/)+/, '');
  return clean(a) === clean(b);
}

// A report (server-escaped HTML) into a node; the one place innerHTML takes server text.
function setReport(node, html) {
  node.innerHTML = typeof html === 'string' ? html : '';
}

function toast(message) {
  const box = $('#toast');
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// Replies per second over the last second.
class FpsMeter {
  constructor() { this.times = []; }
  tick() { this.times.push(performance.now()); this.trim(); }
  trim() {
    const since = performance.now() - 1000;
    while (this.times.length && this.times[0] < since) this.times.shift();
  }
  value() { this.trim(); return this.times.length; }
}

// ---------------------------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------------------------

function connect() {
  clearTimeout(view.retryTimer);
  $('#retry').textContent = '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.binaryType = 'arraybuffer';
  view.socket = socket;
  socket.addEventListener('open', () => {
    view.backoff = 500;
    view.openSent = false;
    setConnected(true);
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data === 'string') onText(event.data);
    else onPicture(event.data);
  });
  socket.addEventListener('close', () => {
    if (view.socket !== socket) return;
    view.socket = null;
    setConnected(false);
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  const delay = view.backoff;
  view.backoff = Math.min(view.backoff * 2, 8000);
  $('#retry').textContent = ` · retrying in ${(delay / 1000).toFixed(1)} s`;
  view.retryTimer = setTimeout(connect, delay);
}

function setConnected(on) {
  state.connected = on;
  $('#status').textContent = on ? 'connected' : 'disconnected';
  document.body.classList.toggle('offline', !on);
  framer.inflight = null;
  if (!on && view.panel) view.panel.onDisconnect();
}

function send(message) {
  const socket = view.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

function onText(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (err) {
    toast(`unreadable message from the server: ${err.message}`);
    return;
  }
  const handler = HANDLERS[msg && msg.type];
  if (handler) handler(msg);
}

const HANDLERS = {
  hello: onHello,
  files: onFiles,
  file: onFile,
  gone: onGone,
  frame_error: onFrameError,
  frame_stats: (msg) => view.panel && view.panel.onFrameStats(msg),
  run_output: (msg) => view.panel && view.panel.onRunOutput(msg),
  run_end: onRunEnd,
  error: (msg) => toast(String(msg.message)),
};

function onHello(msg) {
  const parts = [];
  if (msg.version) parts.push(`v${msg.version}`);
  parts.push(msg.gpu ? `GPU: ${msg.gpu}` : 'no GPU');
  $('#server-info').textContent = parts.join(' · ');
}

function onRunEnd(msg) {
  state.runs += 1;
  state.lastRun = msg;
  if (view.panel) view.panel.onRunEnd(msg);
}

// ---------------------------------------------------------------------------------------------
// Frames: one request in flight at a time, shared by the picture panels
// ---------------------------------------------------------------------------------------------

const framer = { inflight: null, sentAt: 0 };

// Sends a frame request if none is in flight; returns its seq, or 0.
function requestFrame(request) {
  if (framer.inflight !== null || !state.connected) return 0;
  const seq = ++view.seq;
  if (!send({ type: 'frame', seq, ...request })) {
    view.seq -= 1;
    return 0;
  }
  framer.inflight = seq;
  framer.sentAt = performance.now();
  return seq;
}

function frameReplied(seq) {
  if (seq === framer.inflight) framer.inflight = null;
  requestAnimationFrame(() => view.panel && view.panel.pump());
}

// A reply that never comes must not stall the page for good.
setInterval(() => {
  if (framer.inflight !== null && performance.now() - framer.sentAt > 30000) {
    framer.inflight = null;
    if (view.panel) view.panel.pump();
  }
}, 1000);

function onPicture(buffer) {
  if (!(buffer instanceof ArrayBuffer) || buffer.byteLength < 24) return;
  const head = new DataView(buffer, 0, 24);
  const magic = String.fromCharCode(head.getUint8(0), head.getUint8(1), head.getUint8(2), head.getUint8(3));
  if (magic !== 'PAF1') return;
  const frame = {
    seq: head.getUint32(4, true),
    width: head.getUint32(8, true),
    height: head.getUint32(12, true),
    time: head.getFloat32(16, true),
    where: head.getUint8(20),
  };
  const complete = buffer.byteLength >= 24 + frame.width * frame.height * 4;
  frameReplied(frame.seq);
  if (!complete || !view.panel) return;
  if (view.panel.onFrame(frame, buffer)) {
    state.frames += 1;
    state.lastFrame = frame;
  }
}

function onFrameError(msg) {
  frameReplied(msg.seq);
  if (view.panel) view.panel.onFrameError(msg);
}

// Draws a reply on a canvas; returns false for a picture the canvas cannot take.
function drawPicture(canvas, frame, buffer) {
  if (frame.width === 0 || frame.height === 0) return false;
  const pixels = new Uint8ClampedArray(buffer, 24, frame.width * frame.height * 4);
  if (canvas.width !== frame.width) canvas.width = frame.width;
  if (canvas.height !== frame.height) canvas.height = frame.height;
  canvas.getContext('2d').putImageData(new ImageData(pixels, frame.width, frame.height), 0, 0);
  canvas.classList.add('drawn');
  return true;
}

// ---------------------------------------------------------------------------------------------
// The file list and the URL hash
// ---------------------------------------------------------------------------------------------

function hashPath() {
  const hash = location.hash;
  if (!hash.startsWith('#path=')) return null;
  try {
    return decodeURIComponent(hash.slice(6));
  } catch (err) {
    return null;
  }
}

function setHash(path) {
  const hash = `#path=${encodeURIComponent(path).replace(/%2F/g, '/')}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function isServed(path) {
  return state.files.some((f) => f.path === path);
}

function onFiles(msg) {
  state.files = Array.isArray(msg.files) ? msg.files : [];
  const pictures = Array.isArray(msg.pictures) ? msg.pictures.filter((p) => typeof p === 'string') : [];
  const picturesChanged = pictures.join('\n') !== state.pictures.join('\n');
  state.pictures = pictures;
  view.cut = Boolean(msg.cut);
  renderFiles();
  if (picturesChanged && view.panel) view.panel.onPictures();
  if (!view.openSent) {
    // The hash's file first, then the one open before a reconnect, then the first source.
    const wanted = hashPath();
    if (wanted && !isServed(wanted)) showMissing(wanted);
    else if (wanted) openFile(wanted);
    else if (state.open && isServed(state.open)) openFile(state.open);
    else if (state.files.length) openFile(state.files[0].path);
  } else if (state.open && view.gone && isServed(state.open)) {
    openFile(state.open, true);
  }
}

// The list is a listbox: one option per file, in one group per folder. The open file (else
// the first) is the one Tab reaches; the arrow keys move between files, Enter opens one.
function renderFiles() {
  const list = $('#files');
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.path : null;
  list.textContent = '';
  // Grouped by folder: the folder's own files first, then its subfolders.
  const sorted = [...state.files].sort((a, b) => {
    const [da, db] = [dirName(a.path), dirName(b.path)];
    if (da !== db) return da < db ? -1 : 1;
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
  let group = null;
  let folder = null;
  sorted.forEach((file) => {
    const dir = dirName(file.path);
    if (group === null || dir !== folder) {
      folder = dir;
      const id = `folder-${list.children.length}`;
      group = el('div', { className: 'group', role: 'group', 'aria-labelledby': id },
        el('div', { className: 'folder', id, title: dir || '.' }, dir ? `${dir}/` : './'));
      list.append(group);
    }
    group.append(el('div', {
      className: 'file',
      role: 'option',
      title: `${file.path} (${file.target})`,
      tabIndex: -1,
      dataset: { path: file.path },
      onclick: () => openFile(file.path),
    },
    el('span', { className: 'dot', 'aria-hidden': 'true' }),
    el('span', { className: 'name' }, baseName(file.path)),
    el('span', { className: 'badge' }, file.target)));
  });
  $('#file-count').textContent = state.files.length ? String(state.files.length) : '';
  if (!state.files.length) list.append(el('div', { className: 'empty' }, 'no sources under the folders served'));
  if (view.cut) list.append(el('div', { className: 'empty' }, 'the list stops here: too many files under the folders served'));
  markOpenFile();
  const again = focused && fileItem(focused);
  if (again) focusFile(again);
}

function fileItems() {
  return [...document.querySelectorAll('#files .file')];
}

function fileItem(path) {
  return fileItems().find((item) => item.dataset.path === path) || null;
}

function focusFile(item) {
  for (const other of fileItems()) other.tabIndex = other === item ? 0 : -1;
  item.focus();
  item.scrollIntoView({ block: 'nearest' });
}

$('#files').addEventListener('keydown', (event) => {
  const items = fileItems();
  const at = items.indexOf(document.activeElement);
  if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
  const step = { ArrowDown: 1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[event.key];
  let next = null;
  if (step) next = items[Math.max(0, Math.min(items.length - 1, at + step))];
  else if (event.key === 'Home') next = items[0];
  else if (event.key === 'End') next = items[items.length - 1];
  else if (event.key === 'Enter' || event.key === ' ') openFile(items[at].dataset.path);
  else return;
  event.preventDefault();
  if (next) focusFile(next);
});

// The open file's dot is live; another file's is hollow, as it was when last open here.
function markOpenFile() {
  const items = fileItems();
  for (const item of items) {
    const path = item.dataset.path;
    const open = path === state.open;
    item.classList.toggle('active', open);
    item.setAttribute('aria-selected', String(open));
    const known = open ? (view.gone ? null : state.ok) : view.known.get(path);
    const dot = item.querySelector('.dot');
    dot.className = 'dot';
    if (known !== null && known !== undefined) dot.classList.add(known ? 'ok' : 'bad');
    if (!open) dot.classList.add('past');
    const status = known === null || known === undefined ? ''
      : `${known ? 'assembles' : 'has errors'}${open ? '' : ' (when last opened)'}`;
    item.setAttribute('aria-description', status);
    item.title = `${path} (${item.querySelector('.badge').textContent})${status ? `: ${status}` : ''}`;
  }
  // Tab reaches the open file, else the first; while the list has the focus, the focused one.
  if (!$('#files').contains(document.activeElement)) {
    const target = items.find((item) => item.classList.contains('active')) || items[0];
    for (const item of items) item.tabIndex = item === target ? 0 : -1;
  }
}

function openFile(path, force) {
  if (!isServed(path)) {
    showMissing(path);
    return;
  }
  setHash(path);
  if (path === state.open && view.openSent && !force) return;
  if (path !== state.open) {
    state.open = path;
    state.fileVersion = null;
    state.ok = null;
    view.file = null;
    closePanel();
    clearFileView(path);
  }
  view.gone = false;
  view.openSent = send({ type: 'open', path });
  $('#open-path').textContent = path;
  document.title = `${baseName(path)} · polyasm serve`;
  markOpenFile();
}

function showMissing(path) {
  const report = $('#report');
  report.textContent = '';
  report.append(el('span', { className: 'c-yellow' }, `no source named ${path} is served`));
}

window.addEventListener('hashchange', () => {
  const path = hashPath();
  if (!path || path === state.open) return;
  openFile(path);
});

// ---------------------------------------------------------------------------------------------
// The open file: report, source and listing
// ---------------------------------------------------------------------------------------------

function clearFileView(path) {
  $('#report').textContent = '';
  $('#counts').textContent = '';
  $('#source').textContent = '';
  $('#source-info').textContent = path;
  $('#listing tbody').textContent = '';
  $('#listing-info').textContent = '';
  view.lines = [];
  view.marked = null;
}

function onFile(msg) {
  if (msg.path !== state.open) return;
  view.file = msg;
  view.gone = false;
  state.fileVersion = msg.version;
  state.ok = Boolean(msg.ok);
  view.known.set(msg.path, state.ok);
  document.body.classList.remove('gone');
  renderReport(msg);
  renderSource(msg);
  renderListing(msg);
  markOpenFile();
  ensurePanel(msg).onFile(msg);
  if (view.jump && view.jump.path === msg.path) {
    markLine(view.jump.line, true);
    view.jump = null;
  }
}

function onGone(msg) {
  if (msg.path !== state.open) return;
  view.gone = true;
  document.body.classList.add('gone');
  const report = $('#report');
  report.textContent = '';
  report.append(el('span', { className: 'c-yellow c-bold' }, `${msg.path} is gone`),
    ' (deleted, moved, or unreadable); it opens again when it comes back.');
  $('#counts').textContent = '';
  markOpenFile();
  if (view.panel) view.panel.onGone();
}

function renderReport(msg) {
  const counts = $('#counts');
  counts.textContent = '';
  const errors = msg.errors || 0;
  const warnings = msg.warnings || 0;
  if (errors) counts.append(el('span', { className: 'count err' }, plural(errors, 'error')));
  if (warnings) counts.append(el('span', { className: 'count warn' }, plural(warnings, 'warning')));
  const report = $('#report');
  if (msg.report) {
    setReport(report, msg.report);
  } else {
    report.textContent = '';
    report.append(el('span', { className: 'c-green' }, msg.ok ? '✓ no problems' : 'not assembled'));
  }
}

// Clicking a place in any report shows that line of the source.
document.addEventListener('click', (event) => {
  const place = event.target.closest && event.target.closest('a.place');
  if (!place) return;
  event.preventDefault();
  const line = Number(place.dataset.line);
  const file = place.dataset.file;
  if (!file || samePath(file, state.open)) {
    markLine(line, true);
  } else if (isServed(file)) {
    view.jump = { path: file, line };
    openFile(file);
  } else {
    toast(`${file} is not one of the served sources`);
  }
});

// Severity ranges of each line, in characters: line -> [[start, end, rank, message]].
function diagnosticRanges(diagnostics, lineCount, lineLength) {
  const byLine = new Map();
  const add = (line, start, end, rank, message) => {
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push([start, end, rank, message]);
  };
  for (const d of diagnostics || []) {
    if (d.file && !samePath(d.file, state.open)) continue;
    const first = d.line;
    if (!Number.isInteger(first) || first < 1 || first > lineCount) continue;
    const last = Number.isInteger(d.end_line) && d.end_line >= first ? Math.min(d.end_line, lineCount) : first;
    const rank = d.severity === 'error' ? 2 : 1;
    const text = `${d.severity}${d.code ? `[${d.code}]` : ''}: ${d.message}`;
    for (let line = first; line <= last; line++) {
      const start = line === first ? Math.max((d.column || 1) - 1, 0) : 0;
      let end = line === last && Number.isInteger(d.end_column) ? d.end_column - 1 : lineLength(line);
      if (end <= start) end = start + 1;
      add(line, start, end, rank, line === first ? text : null);
    }
  }
  return byLine;
}

// The characters of a line cut where the underlines start and stop.
function underlined(chars, ranges) {
  const cuts = new Set([0, chars.length]);
  for (const [start, end] of ranges) {
    cuts.add(Math.min(start, chars.length));
    cuts.add(Math.min(end, chars.length));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [a, b] = [points[i], points[i + 1]];
    const rank = Math.max(0, ...ranges.filter(([s, e]) => s <= a && b <= e).map((r) => r[2]));
    const text = chars.slice(a, b).join('');
    out.push(rank ? el('span', { className: rank === 2 ? 'squiggle-err' : 'squiggle-warn' }, text) : text);
  }
  // A mark past the line's end (a missing token) shows as a caret.
  const past = ranges.filter(([s]) => s >= chars.length);
  if (past.length) {
    const rank = Math.max(...past.map((r) => r[2]));
    out.push(el('span', { className: rank === 2 ? 'squiggle-err eol' : 'squiggle-warn eol' }, ' '));
  }
  return out;
}

function renderSource(msg) {
  const source = $('#source');
  const keepScroll = source.scrollTop;
  const text = typeof msg.source === 'string' ? msg.source : '';
  const rows = text.split(/\r?\n/);
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  const chars = rows.map((row) => Array.from(row));
  const ranges = diagnosticRanges(msg.diagnostics, rows.length, (n) => chars[n - 1].length);
  const fragment = document.createDocumentFragment();
  view.lines = [];
  chars.forEach((row, index) => {
    const number = index + 1;
    const marks = ranges.get(number) || [];
    const rank = Math.max(0, ...marks.map((m) => m[2]));
    const line = el('div', {
      className: `line${rank === 2 ? ' has-err' : rank === 1 ? ' has-warn' : ''}`,
      dataset: { line: String(number) },
    },
    el('span', { className: 'ln' }, String(number)),
    el('span', { className: 'code' }, ...(marks.length ? underlined(row, marks) : [row.join('')])));
    const messages = marks.map((m) => m[3]).filter(Boolean);
    if (messages.length) line.title = messages.join('\n');
    fragment.append(line);
    view.lines.push(line);
  });
  source.textContent = '';
  source.append(fragment);
  if (msg.source_truncated) {
    source.append(el('div', { className: 'note' }, '… the file is longer; only its beginning is shown'));
  }
  source.scrollTop = keepScroll;
  view.marked = null;
  const lineCount = `${plural(rows.length, 'line')}`;
  $('#source-info').textContent = `${msg.path} · ${msg.target} · ${lineCount} · version ${msg.version}`;
}

function markLine(number, scroll) {
  if (view.marked) view.marked.classList.remove('marked');
  const line = view.lines[number - 1];
  view.marked = line || null;
  if (!line) return;
  line.classList.remove('flash');
  void line.offsetWidth;
  line.classList.add('marked', 'flash');
  if (scroll) line.scrollIntoView({ block: 'center' });
  for (const row of document.querySelectorAll('#listing tr.marked')) row.classList.remove('marked');
  const rows = document.querySelectorAll(`#listing tr[data-line="${number}"]`);
  rows.forEach((row) => row.classList.add('marked'));
  if (rows.length && scroll) rows[0].scrollIntoView({ block: 'nearest' });
}

$('#source').addEventListener('click', (event) => {
  const line = event.target.closest('.line');
  if (line) markLine(Number(line.dataset.line), false);
});

function wordsText(words) {
  if (typeof words === 'string') return words;
  if (Array.isArray(words)) return words.map((w) => (Number(w) >>> 0).toString(16).padStart(8, '0')).join(' ');
  return '';
}

function renderListing(msg) {
  const body = $('#listing tbody');
  body.textContent = '';
  const rows = Array.isArray(msg.listing) ? msg.listing : [];
  const fragment = document.createDocumentFragment();
  for (const entry of rows) {
    const hasLine = Number.isInteger(entry.line);
    const place = entry.file ? `${entry.file}:${hasLine ? entry.line : '-'}` : hasLine ? String(entry.line) : '-';
    const text = entry.note ? el('span', { className: 'muted' }, `; ${entry.note}`) : (entry.source || '');
    const address = Number.isInteger(entry.address) ? entry.address.toString(16).padStart(4, '0') : '';
    const row = el('tr', {
      onclick: () => hasLine && !entry.file && markLine(entry.line, true),
    },
    el('td', { className: 'addr' }, address),
    el('td', { className: 'words' }, el('span', {}, wordsText(entry.words))),
    el('td', { className: 'lno' }, place),
    el('td', { className: 'src' }, text));
    if (hasLine && !entry.file) row.dataset.line = String(entry.line);
    fragment.append(row);
  }
  body.append(fragment);
  if (!rows.length) {
    const why = msg.ok ? 'nothing assembled' : 'no listing while the file has errors';
    body.append(el('tr', { className: 'note' }, el('td', { colSpan: 4 }, why)));
  }
  if (msg.listing_truncated) {
    body.append(el('tr', { className: 'note' }, el('td', { colSpan: 4 }, '… the listing is longer; only its beginning is shown')));
  }
  $('#listing-info').textContent = rows.length ? plural(rows.filter((r) => r.words && r.words.length).length, 'row') : '';
}

// ---------------------------------------------------------------------------------------------
// Panels: one object per open file, made from the file's `panel`
// ---------------------------------------------------------------------------------------------

function ensurePanel(msg) {
  const kind = PANELS[msg.panel] ? msg.panel : 'none';
  if (view.panel && view.panel.path === msg.path && view.panel.kind === kind) return view.panel;
  closePanel();
  const root = $('#panel');
  root.textContent = '';
  root.dataset.panel = kind;
  view.panel = new PANELS[kind](root, msg);
  view.panel.kind = kind;
  view.panel.path = msg.path;
  const inputs = view.inputs.get(`${kind}:${msg.path}`);
  if (inputs) view.panel.restoreInputs(inputs);
  return view.panel;
}

function closePanel() {
  if (view.panel) {
    const inputs = view.panel.saveInputs();
    if (inputs) view.inputs.set(`${view.panel.kind}:${view.panel.path}`, inputs);
    view.panel.close();
  }
  view.panel = null;
  const root = $('#panel');
  root.textContent = '';
  root.dataset.panel = '';
}

// What every panel does unless it says otherwise.
class Panel {
  constructor(root, title, file) {
    this.root = root;
    this.firstSeq = view.seq + 1;
    this.run = 0;
    root.append(el('div', { className: 'pane-title' }, title,
      el('span', { className: 'muted' }, ` · ${baseName(file.path)}`)));
    this.body = el('div', { className: 'panel-body' });
    root.append(this.body);
  }
  ours(seq) { return seq >= this.firstSeq; }
  onFile() {}
  onFrame() { return false; }
  onFrameError() {}
  onFrameStats() {}
  onRunOutput() {}
  onRunEnd() {}
  onDisconnect() {}
  onGone() {}
  onPictures() {}
  pump() {}
  // The inputs a user typed, kept while other files are open: an object, or null.
  saveInputs() { return null; }
  restoreInputs() {}
  close() { this.closed = true; }
  newRun() { this.run = ++view.run; return this.run; }
}

class NonePanel extends Panel {
  constructor(root, file) {
    super(root, 'No live panel', file);
    this.body.append(el('p', { className: 'placeholder' },
      `The ${file.target} target has no live view; its diagnostics and listing are on the left.`));
  }
}

// A note under a picture or output: the errors of the current save, or of the last request.
function noteBox() {
  return el('div', { className: 'panel-note', hidden: true });
}

function showNote(box, text, report) {
  box.textContent = '';
  if (text) box.append(el('div', { className: 'note-title' }, text));
  if (report) {
    const pre = el('div', { className: 'report small' });
    setReport(pre, report);
    box.append(pre);
  }
  box.hidden = !text && !report;
}

// The note of a save with errors; `kept` says whether an earlier result stays on show.
function staleText(file, kept) {
  const errors = plural(file.errors || 0, 'error');
  return kept ? `This save has ${errors}: showing the last good result.` : `This save has ${errors}: nothing to show until they are fixed.`;
}

function pictureFailed(canvas) {
  return canvas.classList.contains('drawn')
    ? 'The picture could not be made; showing the last good one.'
    : 'The picture could not be made.';
}

// Where a picture was made (the picture header's byte): a badge of its own colour each.
const WHERE = [
  { key: 'cpu', text: 'CPU', title: 'made by the CPU renderer' },
  { key: 'gpu', text: 'GPU interpreter', title: 'made on the GPU by the bytecode interpreter, while the program’s own pipeline is built' },
  { key: 'native', text: 'GPU native', title: 'made on the GPU by the program’s own native pipeline' },
];

function whereBadge() {
  return el('span', { id: 'where', className: 'where', title: 'where the pictures are made' });
}

function showWhere(badge, where) {
  const known = WHERE[where];
  badge.textContent = known ? known.text : `where ${where}`;
  badge.dataset.where = known ? known.key : '';
  badge.title = known ? known.title : '';
}

// The render time of the last picture, from its `frame_stats`.
function renderTime() {
  return el('span', { className: 'stat render-ms', title: 'the time the server took to make the last picture' }, '');
}

function showRenderTime(node, msg) {
  if (typeof msg.render_ms !== 'number' || !Number.isFinite(msg.render_ms)) return;
  const ms = msg.render_ms;
  node.textContent = '';
  node.append(el('span', { className: 'mono' }, ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')), ' ms');
}

// ---------------------------------------------------------------------------------------------
// Shader panel: an animated picture
// ---------------------------------------------------------------------------------------------

function sizeSelect(defaultIndex, onchange) {
  const select = el('select', { id: 'size', onchange },
    ...SIZES.map(([w, h], i) => el('option', { value: String(i), selected: i === defaultIndex }, `${w}×${h}`)));
  return select;
}

function selectedSize(select) {
  return SIZES[Number(select.value)] || SIZES[1];
}

class ShaderPanel extends Panel {
  constructor(root, file) {
    super(root, 'Shader', file);
    this.playing = true;
    this.dirty = true;
    this.t0 = performance.now();
    this.fps = new FpsMeter();
    this.canvas = el('canvas', { id: 'picture', width: 640, height: 360, role: 'img', 'aria-label': 'the program’s picture' });
    this.playButton = el('button', { id: 'play', className: 'btn', onclick: () => this.togglePlay() }, 'Pause');
    this.slider = el('input', {
      id: 'time', type: 'range', min: '0', max: '60', step: '0.01', value: '0', 'aria-label': 'time t',
      oninput: () => this.seek(),
    });
    this.timeText = el('span', { className: 'mono time-text' }, '0.00 s');
    this.size = sizeSelect(1, () => { this.dirty = true; this.pump(); });
    this.fpsText = el('span', { id: 'fps', className: 'mono' }, '0');
    this.whereText = whereBadge();
    this.msText = renderTime();
    this.note = noteBox();
    this.body.append(
      el('div', { className: 'stage' }, this.canvas),
      el('div', { className: 'toolbar' }, this.playButton, this.slider, this.timeText),
      el('div', { className: 'toolbar' },
        el('label', {}, 'size ', this.size),
        el('span', { className: 'stat' }, this.fpsText, ' fps'),
        this.msText,
        this.whereText),
      this.note);
    this.timer = setInterval(() => { this.fpsText.textContent = String(this.fps.value()); }, 500);
  }
  close() { super.close(); clearInterval(this.timer); }
  time() {
    if (!this.playing) return Number(this.slider.value);
    return ((performance.now() - this.t0) / 1000) % 60;
  }
  canRender() {
    return !this.closed && !view.gone && view.file && view.file.ok && state.connected;
  }
  pump() {
    if (!this.canRender() || !(this.playing || this.dirty)) return;
    const [width, height] = selectedSize(this.size);
    const time = this.time();
    const seq = requestFrame({ path: this.path, time, width, height, options: [] });
    if (!seq) return;
    this.dirty = false;
    if (this.playing) this.showTime(time);
  }
  showTime(t) {
    this.slider.value = t.toFixed(2);
    this.timeText.textContent = `${t.toFixed(2)} s`;
  }
  togglePlay() {
    this.playing = !this.playing;
    if (this.playing) this.t0 = performance.now() - Number(this.slider.value) * 1000;
    this.playButton.textContent = this.playing ? 'Pause' : 'Play';
    this.dirty = true;
    this.pump();
  }
  seek() {
    if (this.playing) {
      this.playing = false;
      this.playButton.textContent = 'Play';
    }
    this.showTime(Number(this.slider.value));
    this.dirty = true;
    this.pump();
  }
  onFile(file) {
    if (file.ok) {
      showNote(this.note, '', '');
      this.dirty = true;
      this.pump();
    } else {
      showNote(this.note, staleText(file, this.canvas.classList.contains('drawn')), '');
    }
  }
  onFrame(frame, buffer) {
    if (!this.ours(frame.seq) || !drawPicture(this.canvas, frame, buffer)) return false;
    this.fps.tick();
    this.fpsText.textContent = String(this.fps.value());
    showWhere(this.whereText, frame.where);
    if (view.file && view.file.ok) showNote(this.note, '', '');
    return true;
  }
  onFrameError(msg) {
    if (!this.ours(msg.seq)) return;
    if (this.playing) this.togglePlay();
    showNote(this.note, pictureFailed(this.canvas), msg.report);
  }
  onFrameStats(msg) {
    if (this.ours(msg.seq)) showRenderTime(this.msText, msg);
  }
  onDisconnect() { this.dirty = true; }
  onGone() { showNote(this.note, 'The file is gone; showing its last picture.', ''); }
}

// ---------------------------------------------------------------------------------------------
// Lima panel: one picture per change, inputs, and one fragment on click
// ---------------------------------------------------------------------------------------------

// Rows of "N = x,y,z,w" fields: rows made with `fixed` have a label, the others an editable
// slot; `nextSlot(used)` picks the slot of a row added with the button (null: no more).
class VecFields {
  constructor(id, prefix, { fixed, nextSlot, onchange }) {
    this.prefix = prefix;
    this.nextSlot = nextSlot;
    this.onchange = onchange;
    this.list = el('div', { id, className: 'vec-fields' });
    this.addButton = el('button', { className: 'btn small', onclick: () => this.addNext() }, '+ add');
    this.node = el('div', {}, this.list, this.addButton);
    for (const slot of fixed || []) this.add(slot, false);
  }
  addNext() {
    const slot = this.nextSlot(this.rows().map((r) => Number(r.slot)));
    if (slot !== null) this.add(slot, true).focus();
  }
  // Adds a row; returns its value field.
  add(slot, editable, text) {
    const label = `${this.prefix}${slot}`;
    const slotField = editable
      ? el('input', { className: 'slot mono', value: String(slot), size: 4, oninput: this.onchange, title: 'slot', 'aria-label': `${this.prefix} slot` })
      : el('span', { className: 'slot-label mono' }, label);
    const value = el('input', {
      className: 'vec mono', placeholder: 'x,y,z,w', spellcheck: false, value: text || '', oninput: this.onchange,
      'aria-label': editable ? `${this.prefix} value` : `${label} (x,y,z,w)`,
    });
    const row = el('div', { className: 'vec-row', dataset: { slot: String(slot) } }, slotField, value);
    if (editable) {
      row.append(el('button', {
        className: 'btn icon', title: 'remove', 'aria-label': 'remove this row', onclick: () => { row.remove(); this.onchange(); },
      }, '×'));
    }
    this.list.append(row);
    return value;
  }
  rows() {
    return [...this.list.children].map((row) => {
      const slotField = row.querySelector('input.slot');
      return {
        slot: slotField ? slotField.value.trim() : row.dataset.slot,
        value: row.querySelector('input.vec').value.replace(/\s+/g, ''),
        editable: Boolean(slotField),
      };
    });
  }
  // [["varying", "1=0.5,0.5,0,1"], ...] for the rows that have a value.
  options(name) {
    return this.rows().filter((r) => r.slot !== '' && r.value !== '').map((r) => [name, `${r.slot}=${r.value}`]);
  }
  // The rows as typed, for `restore`.
  save() {
    return [...this.list.children].map((row) => {
      const slotField = row.querySelector('input.slot');
      return {
        slot: slotField ? slotField.value : row.dataset.slot,
        value: row.querySelector('input.vec').value,
        editable: Boolean(slotField),
      };
    });
  }
  restore(rows) {
    this.list.textContent = '';
    for (const row of rows) this.add(row.slot, row.editable, row.value);
  }
}

const MAX_SAMPLER = 4095;

// Lima's textures: rows of a sampler number and one of the PNG pictures the server lists, each
// given as `--texture N=NAME`. A row whose picture is no longer listed stays, marked, and is
// left out until another is picked.
class TextureFields {
  constructor(id, onchange) {
    this.onchange = onchange;
    this.list = el('div', { id, className: 'texture-fields' });
    this.addButton = el('button', { className: 'btn small', onclick: () => this.addNext() }, '+ add texture');
    this.empty = el('p', { className: 'muted empty-note' });
    this.node = el('div', {}, this.list, this.empty, this.addButton);
    this.refresh();
  }
  addNext() {
    const used = this.rows().map((r) => Number(r.slot));
    let slot = 0;
    while (used.includes(slot) && slot < MAX_SAMPLER) slot++;
    this.add(String(slot), state.pictures[0] || '').focus();
    this.onchange();
  }
  // Adds a row; returns its picture select.
  add(slot, picture) {
    const slotField = el('input', {
      className: 'slot mono', type: 'number', min: '0', max: String(MAX_SAMPLER), step: '1', value: slot,
      title: `sampler 0 to ${MAX_SAMPLER}`, 'aria-label': 'sampler',
      oninput: () => { this.check(row); this.onchange(); },
    });
    const select = el('select', {
      className: 'picture', 'aria-label': 'picture',
      onchange: () => { this.check(row); this.onchange(); },
    });
    const row = el('div', { className: 'texture-row' },
      el('span', { className: 'muted' }, 'sampler'), slotField, select,
      el('button', {
        className: 'btn icon', title: 'remove', 'aria-label': 'remove this texture',
        onclick: () => { row.remove(); this.refresh(); this.onchange(); },
      }, '×'));
    this.fill(select, picture);
    this.list.append(row);
    this.check(row);
    this.refresh();
    return select;
  }
  // The select's options: the pictures listed, and the row's own picture if it is not.
  fill(select, chosen) {
    select.textContent = '';
    const names = [...state.pictures];
    if (chosen && !names.includes(chosen)) names.unshift(chosen);
    for (const name of names) {
      const listed = state.pictures.includes(name);
      select.append(el('option', { value: name, selected: name === chosen }, listed ? name : `not listed: ${name}`));
    }
  }
  check(row) {
    const slot = row.querySelector('input.slot').value.trim();
    const picture = row.querySelector('select').value;
    const slotOk = /^\d+$/.test(slot) && Number(slot) <= MAX_SAMPLER;
    const listed = state.pictures.includes(picture);
    row.querySelector('input.slot').classList.toggle('invalid', !slotOk);
    row.querySelector('select').classList.toggle('invalid', !listed);
    row.title = !slotOk ? `a sampler is a number from 0 to ${MAX_SAMPLER}`
      : !listed ? 'this picture is no longer under the folders served' : '';
    return slotOk && listed;
  }
  // After the list of pictures changed.
  onPictures() {
    for (const row of this.list.children) {
      this.fill(row.querySelector('select'), row.querySelector('select').value);
      this.check(row);
    }
    this.refresh();
  }
  refresh() {
    const none = !state.pictures.length;
    this.addButton.hidden = none;
    this.empty.textContent = none ? 'No PNG pictures under the folders served.' : '';
    this.empty.hidden = !none;
  }
  rows() {
    return [...this.list.children].map((row) => ({
      slot: row.querySelector('input.slot').value.trim(),
      picture: row.querySelector('select').value,
      ok: this.check(row),
    }));
  }
  // [["texture", "0=examples/lima/wood.png"], ...] for the rows that name a listed picture.
  options() {
    return this.rows().filter((r) => r.ok).map((r) => ['texture', `${Number(r.slot)}=${r.picture}`]);
  }
  save() {
    return this.rows().map(({ slot, picture }) => ({ slot, picture }));
  }
  restore(rows) {
    this.list.textContent = '';
    for (const row of rows) this.add(row.slot, row.picture);
    this.refresh();
  }
}

class LimaPanel extends Panel {
  constructor(root, file) {
    super(root, 'Lima fragment program', file);
    this.dirty = true;
    this.fragmentText = '';
    this.canvas = el('canvas', {
      id: 'picture', width: 320, height: 180, onclick: (e) => this.pick(e),
      role: 'img', 'aria-label': 'the rendered picture; click a pixel to run its fragment',
    });
    this.marker = el('div', { className: 'marker', hidden: true });
    this.size = sizeSelect(0, () => this.changed());
    const changed = debounce(() => this.changed(), DEBOUNCE_MS);
    this.varyings = new VecFields('varyings', 'v', {
      fixed: [1, 2, 3, 4, 5, 6, 7],
      nextSlot: (used) => { const n = Math.max(0, ...used) + 1; return n <= 63 ? n : null; },
      onchange: changed,
    });
    this.uniforms = new VecFields('uniforms', 'u', {
      nextSlot: (used) => { let n = 0; while (used.includes(n)) n++; return n <= 65535 ? n : null; },
      onchange: changed,
    });
    this.uniforms.add(0, true);
    this.textures = new TextureFields('textures', changed);
    this.whereText = whereBadge();
    this.msText = renderTime();
    this.note = noteBox();
    this.fragment = el('pre', { id: 'fragment', className: 'out' }, 'Click the picture to run the program for that pixel.');
    this.body.append(
      el('div', { className: 'stage pick' }, this.canvas, this.marker),
      el('div', { className: 'toolbar' },
        el('label', {}, 'size ', this.size),
        this.msText,
        this.whereText),
      this.note,
      el('h3', {}, 'Fragment'),
      this.fragment,
      el('h3', {}, 'Textures ', el('span', { className: 'muted' }, 'PNG pictures under the folders served')),
      this.textures.node,
      el('h3', {}, 'Varyings ', el('span', { className: 'muted' }, 'v0 is each pixel’s (u, v, 0, 1)')),
      this.varyings.node,
      el('h3', {}, 'Uniforms'),
      this.uniforms.node);
  }
  inputOptions() {
    return [...this.varyings.options('varying'), ...this.uniforms.options('uniform'), ...this.textures.options()];
  }
  saveInputs() {
    return {
      size: this.size.value,
      varyings: this.varyings.save(),
      uniforms: this.uniforms.save(),
      textures: this.textures.save(),
    };
  }
  restoreInputs(inputs) {
    this.size.value = inputs.size;
    this.varyings.restore(inputs.varyings);
    this.uniforms.restore(inputs.uniforms);
    this.textures.restore(inputs.textures);
  }
  onPictures() {
    this.textures.onPictures();
    this.changed();
  }
  changed() {
    this.dirty = true;
    this.pump();
  }
  pump() {
    if (this.closed || view.gone || !view.file || !view.file.ok || !this.dirty) return;
    const [width, height] = selectedSize(this.size);
    if (requestFrame({ path: this.path, time: 0, width, height, options: this.inputOptions() })) this.dirty = false;
  }
  onFile(file) {
    if (file.ok) {
      showNote(this.note, '', '');
      this.changed();
    } else {
      showNote(this.note, staleText(file, this.canvas.classList.contains('drawn')), '');
    }
  }
  onFrame(frame, buffer) {
    if (!this.ours(frame.seq) || !drawPicture(this.canvas, frame, buffer)) return false;
    showWhere(this.whereText, frame.where);
    if (view.file && view.file.ok) showNote(this.note, '', '');
    return true;
  }
  onFrameError(msg) {
    if (this.ours(msg.seq)) showNote(this.note, pictureFailed(this.canvas), msg.report);
  }
  onFrameStats(msg) {
    if (this.ours(msg.seq)) showRenderTime(this.msText, msg);
  }
  onDisconnect() { this.dirty = true; }
  onGone() { showNote(this.note, 'The file is gone; showing its last picture.', ''); }
  // Runs the one fragment under the pointer: its gl_FragCoord and varying 0 as the render has them.
  pick(event) {
    const rect = this.canvas.getBoundingClientRect();
    const w = this.canvas.width;
    const h = this.canvas.height;
    const x = Math.min(w - 1, Math.max(0, Math.floor((event.clientX - rect.left) * w / rect.width)));
    const y = Math.min(h - 1, Math.max(0, Math.floor((event.clientY - rect.top) * h / rect.height)));
    const u = (x + 0.5) / w;
    const v = 1 - (y + 0.5) / h;
    const fromBottom = h - 1 - y;
    this.marker.style.left = `${((x + 0.5) / w) * 100}%`;
    this.marker.style.top = `${((y + 0.5) / h) * 100}%`;
    this.marker.hidden = false;
    const run = this.newRun();
    const options = [
      ['fragcoord', `${x + 0.5},${fromBottom + 0.5}`],
      ['varying', `0=${u},${v},0,1`],
      ...this.inputOptions(),
    ];
    this.fragmentText = '';
    this.pickLabel = `pixel (${x}, ${y}) from the top left · gl_FragCoord (${x + 0.5}, ${fromBottom + 0.5}) · uv (${u.toFixed(4)}, ${v.toFixed(4)})`;
    this.fragment.textContent = `${this.pickLabel}\nrunning…`;
    if (!send({ type: 'run', path: this.path, run, stdin: '', options })) {
      this.fragment.textContent = `${this.pickLabel}\nnot connected`;
    }
  }
  onRunOutput(msg) {
    if (msg.run === this.run) this.fragmentText += String(msg.text);
  }
  onRunEnd(msg) {
    if (msg.run !== this.run) return;
    const text = this.fragmentText || String(msg.output || '');
    this.fragment.textContent = '';
    this.fragment.append(`${this.pickLabel}\n`, text.trimEnd() || `(${msg.status})`);
    if (msg.stderr) this.fragment.append('\n', el('span', { className: 'c-yellow' }, String(msg.stderr).trimEnd()));
    if (msg.status !== 'ok') {
      const report = el('div', { className: 'report small' });
      setReport(report, msg.report || '');
      this.fragment.append('\n', el('span', { className: 'c-red' }, runStatusText(msg)), report);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Masfix panel: runs with the stdin box's text, streamed output, and memory
// ---------------------------------------------------------------------------------------------

function runStatusText(msg) {
  const code = Number.isInteger(msg.exit_code) ? msg.exit_code : null;
  switch (msg.status) {
    case 'ok': return `exited with ${code ?? 0}`;
    case 'error':
      if (hitStepLimit(msg)) return 'stopped at the step limit';
      return `failed${code !== null ? ` (exit code ${code})` : ''}`;
    case 'stopped': return 'stopped';
    case 'cut': return 'stopped at the 1 MiB output limit';
    case 'busy': return 'busy: the server has too many runs at once';
    default: return String(msg.status);
  }
}

// Whether a run ended at its step limit (Masfix's MX071, Lima's PP300).
function hitStepLimit(msg) {
  return Array.isArray(msg.diagnostics) && msg.diagnostics.some((d) => d && (d.code === 'MX071' || d.code === 'PP300'));
}

// The colour of a run's status: ok, warn (stopped, or an exit code other than 0), bad.
function runStatusClass(msg) {
  if (msg.status === 'ok') return Number.isInteger(msg.exit_code) && msg.exit_code !== 0 ? 'warn' : 'ok';
  if (msg.status === 'stopped' || msg.status === 'cut' || msg.status === 'busy' || hitStepLimit(msg)) return 'warn';
  return 'bad';
}

// A pre for streamed text. Complete lines go into blocks of their own, so new text lays out
// only itself; text is added in batches; the first MAX_OUTPUT characters are kept.
class OutputView {
  constructor(id) {
    this.node = el('pre', { id, className: 'out' });
    this.clear();
  }
  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.node.textContent = '';
    this.tail = el('span', { className: 'chunk' });
    this.node.append(this.tail);
    this.pending = '';
    this.length = 0;
    this.capped = false;
  }
  append(text) {
    if (this.capped) return;
    const room = MAX_OUTPUT - this.length;
    const piece = text.length > room ? text.slice(0, room) : text;
    this.pending += piece;
    this.length += piece.length;
    if (text.length > room) this.capped = true;
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), 40);
  }
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending && !this.capped) return;
    const node = this.node;
    const atEnd = node.scrollTop + node.clientHeight >= node.scrollHeight - 8;
    let text = this.tail.textContent + this.pending;
    this.pending = '';
    // A long line without a break is cut too, so that no block grows without end.
    let cut = text.lastIndexOf('\n') + 1;
    if (text.length - cut > 4096) cut = text.length;
    if (cut > 0) {
      this.tail.before(el('span', { className: 'chunk' }, text.slice(0, cut)));
      text = text.slice(cut);
    }
    this.tail.textContent = text;
    if (this.capped && !this.node.querySelector('.cap-note')) {
      node.append(el('span', { className: 'cap-note' }, '… output cut here: the page keeps the first 1 MB'));
    }
    if (atEnd) node.scrollTop = node.scrollHeight;
  }
  note(text) {
    this.flush();
    this.node.append(el('span', { className: 'cap-note' }, text));
  }
}

class MasfixPanel extends Panel {
  constructor(root, file) {
    super(root, 'Masfix run', file);
    this.running = false;
    this.stdin = el('textarea', { id: 'stdin', className: 'mono', rows: 3, spellcheck: false, placeholder: 'standard input' });
    this.maxSteps = el('input', { id: 'max-steps', className: 'mono', type: 'number', min: '1', max: '10000000000', value: '100000000' });
    this.runButton = el('button', { id: 'run', className: 'btn primary', onclick: () => this.start() }, 'Run');
    this.stopButton = el('button', { id: 'stop', className: 'btn', disabled: true, onclick: () => this.stop() }, 'Stop');
    this.status = el('span', { id: 'run-status', className: 'pill', role: 'status' }, 'not run yet');
    this.steps = el('span', { id: 'steps', className: 'mono' }, '–');
    this.out = new OutputView('run-output');
    this.output = this.out.node;
    this.report = el('div', { className: 'report small', hidden: true });
    this.stderr = el('pre', { id: 'run-stderr', className: 'out stderr' });
    this.stderrBox = el('div', { hidden: true }, el('h3', {}, 'Standard error'), this.stderr);
    this.note = noteBox();
    this.registers = el('div', { className: 'registers mono' });
    this.memory = el('div', { id: 'memory', className: 'memory mono' });
    this.registers.append(el('span', { className: 'muted' }, 'the registers and the memory around h, once a run ends'));
    this.body.append(
      el('label', { className: 'field' }, 'stdin', this.stdin),
      el('div', { className: 'toolbar' }, this.runButton, this.stopButton,
        el('label', {}, 'max steps ', this.maxSteps)),
      el('div', { className: 'toolbar' }, el('span', { className: 'run-state' }, this.status),
        el('span', { className: 'stat' }, this.steps, ' steps')),
      this.note,
      el('h3', {}, 'Output'),
      this.output,
      this.report,
      this.stderrBox,
      el('h3', {}, 'Memory'),
      this.registers,
      this.memory);
  }
  start() {
    if (this.running && this.run) send({ type: 'stop', run: this.run });
    const run = this.newRun();
    this.out.clear();
    this.output.classList.remove('nothing');
    this.streamed = false;
    this.report.hidden = true;
    this.stderrBox.hidden = true;
    this.output.classList.remove('stale');
    this.registers.classList.add('stale');
    this.memory.classList.add('stale');
    this.steps.textContent = '–';
    const steps = this.maxSteps.value.trim() || '100000000';
    const sent = send({ type: 'run', path: this.path, run, stdin: this.stdin.value, options: [['max-steps', steps]] });
    this.setRunning(sent);
    this.status.textContent = sent ? 'running…' : 'not connected';
    this.status.className = `pill ${sent ? 'running' : 'bad'}`;
  }
  saveInputs() {
    return { stdin: this.stdin.value, maxSteps: this.maxSteps.value };
  }
  restoreInputs(inputs) {
    this.stdin.value = inputs.stdin;
    this.maxSteps.value = inputs.maxSteps;
  }
  stop() {
    if (this.running) send({ type: 'stop', run: this.run });
  }
  close() {
    this.stop();
    this.out.clear();
    super.close();
  }
  setRunning(on) {
    this.running = on;
    this.stopButton.disabled = !on;
    this.root.classList.toggle('is-running', on);
  }
  onFile(file) {
    if (file.ok) {
      showNote(this.note, '', '');
      this.start();
    } else {
      showNote(this.note, staleText(file, this.run !== 0), '');
      this.output.classList.add('stale');
    }
  }
  onRunOutput(msg) {
    if (msg.run !== this.run) return;
    this.streamed = true;
    this.out.append(String(msg.text));
  }
  onRunEnd(msg) {
    if (msg.run !== this.run) return;
    this.setRunning(false);
    if (!this.streamed && msg.output) this.out.append(String(msg.output));
    this.out.flush();
    this.output.classList.toggle('nothing', this.out.length === 0);
    if (msg.output_truncated && !this.out.capped) this.out.note('… stopped here, at the 1 MiB output limit');
    this.status.textContent = runStatusText(msg);
    this.status.className = `pill ${runStatusClass(msg)}`;
    this.steps.textContent = Number.isInteger(msg.steps) ? msg.steps.toLocaleString('en-US') : '–';
    setReport(this.report, msg.report || '');
    this.report.hidden = !msg.report;
    const stderr = typeof msg.stderr === 'string' ? msg.stderr : '';
    this.stderr.textContent = stderr;
    this.stderrBox.hidden = stderr === '';
    if (msg.state) this.showState(msg.state);
  }
  onDisconnect() {
    if (!this.running) return;
    this.setRunning(false);
    this.status.textContent = 'disconnected during the run';
    this.status.className = 'pill bad';
  }
  showState(machine) {
    this.registers.classList.remove('stale');
    this.memory.classList.remove('stale');
    const regs = Array.isArray(machine.registers) ? machine.registers : [];
    this.registers.textContent = '';
    let head = null;
    for (const [name, value] of regs) {
      if (name === 'h') head = value;
      this.registers.append(el('span', { className: 'reg' }, el('b', {}, String(name)), ` ${value}`));
    }
    this.memory.textContent = '';
    const memory = machine.memory || {};
    const cells = Array.isArray(memory.cells) ? memory.cells : [];
    const start = Number(memory.start) || 0;
    if (cells.length) {
      this.memory.append(el('div', { className: 'mem-row mem-head' }, el('span', {}, ''),
        ...Array.from({ length: MEMORY_COLUMNS }, (_, i) => el('span', { className: 'cell' }, `+${i}`))));
    }
    for (let i = 0; i < cells.length; i += MEMORY_COLUMNS) {
      const row = el('div', { className: 'mem-row' }, el('span', { className: 'mem-addr' }, String(start + i).padStart(5, ' ')));
      cells.slice(i, i + MEMORY_COLUMNS).forEach((value, j) => {
        const address = start + i + j;
        row.append(el('span', {
          className: `cell${address === head ? ' head' : ''}${value ? '' : ' zero'}`,
          title: `[${address}] = ${value}`,
        }, String(value)));
      });
      this.memory.append(row);
    }
    if (!cells.length) this.memory.append(el('span', { className: 'muted' }, 'no memory in this run’s end state'));
  }
}

// ---------------------------------------------------------------------------------------------
// Vertex panel (nv2a, VU): inputs, constants, and the outputs of each vertex
// ---------------------------------------------------------------------------------------------

// A table of vec4 rows: slot, x, y, z, w, and a button to remove the row.
class VecTable {
  constructor(id, rows, nextSlot, defaults, onchange, empty) {
    this.nextSlot = nextSlot;
    this.defaults = defaults;
    this.onchange = onchange;
    this.body = el('tbody');
    this.table = el('table', { id, className: 'vec-table' },
      el('thead', {}, el('tr', {}, ...['slot', 'x', 'y', 'z', 'w', ''].map((h) => el('th', {}, h)))),
      this.body);
    this.node = el('div', {}, this.table, el('p', { className: 'muted vec-empty' }, empty),
      el('button', { className: 'btn small', onclick: () => { this.add(this.nextSlot(this.slots()), []); this.onchange(); } }, '+ add'));
    for (const [slot, lanes] of rows) this.add(slot, lanes);
  }
  add(slot, lanes) {
    const cell = (value, cls, placeholder, label) => el('td', {},
      el('input', { className: `mono ${cls}`, value, placeholder, spellcheck: false, oninput: this.onchange, 'aria-label': label }));
    const row = el('tr', {},
      cell(slot, 'slot', 'slot', 'slot'),
      ...[0, 1, 2, 3].map((i) => cell(lanes[i] === undefined ? '' : String(lanes[i]), 'lane', String(this.defaults[i]), 'xyzw'[i])));
    row.append(el('td', {}, el('button', {
      className: 'btn icon', title: 'remove', 'aria-label': 'remove this row', onclick: () => { row.remove(); this.onchange(); },
    }, '×')));
    this.body.append(row);
  }
  // The rows as typed: [[slot, [x, y, z, w]], ...].
  save() {
    return [...this.body.rows].map((row) => {
      const [slot, ...lanes] = [...row.querySelectorAll('input')].map((i) => i.value);
      return [slot, lanes];
    });
  }
  restore(rows) {
    this.body.textContent = '';
    for (const [slot, lanes] of rows) this.add(slot, lanes);
  }
  slots() {
    return [...this.body.rows].map((row) => row.querySelector('input.slot').value.trim());
  }
  // [["input", "v0=0,0,0,1"], ...]: empty lanes take the defaults; rows without a slot are left out.
  options(name) {
    return [...this.body.rows].map((row) => {
      const [slot, ...lanes] = [...row.querySelectorAll('input')].map((i) => i.value.trim());
      if (!slot) return null;
      const values = lanes.map((lane, i) => lane || String(this.defaults[i]));
      return [name, `${slot}=${values.join(',')}`];
    }).filter(Boolean);
  }
}

// Slot names of each vertex target: nv2a's `v0`/`c0`, the VU's bare numbers.
const VERTEX_SLOTS = {
  nv2a: { input: (n) => `v${n}`, constant: (n) => `c${n}`, inputs: 16, constants: 192 },
  vu: { input: (n) => String(n), constant: (n) => String(n), inputs: 8, constants: 16 },
};

function nextFreeSlot(name, count) {
  return (used) => {
    for (let n = 0; n < count; n++) if (!used.includes(name(n))) return name(n);
    return name(0);
  };
}

// A lane of an output: as JSON gives it, very large and very small numbers in exponent form.
function laneText(lane) {
  if (typeof lane !== 'number') return 'NaN/inf';
  const size = Math.abs(lane);
  if (size !== 0 && (size >= 1e7 || size < 1e-4)) return lane.toExponential(5).replace(/\.?0+e/, 'e');
  return String(lane);
}

class VertexPanel extends Panel {
  constructor(root, file) {
    super(root, file.target === 'vu' ? 'VU vertex program' : 'nv2a vertex program', file);
    const slots = VERTEX_SLOTS[file.target] || VERTEX_SLOTS.nv2a;
    const changed = debounce(() => this.start(), DEBOUNCE_MS);
    this.inputs = new VecTable('inputs', [[slots.input(0), [0, 0, 0, 1]]],
      nextFreeSlot(slots.input, slots.inputs), [0, 0, 0, 1], changed, 'None given.');
    this.constants = new VecTable('constants', [],
      nextFreeSlot(slots.constant, slots.constants), [0, 0, 0, 0], changed, 'None given: every constant reads 0.');
    this.status = el('span', { id: 'run-status' }, 'not run yet');
    this.outputs = el('table', { id: 'outputs', className: 'out-table mono' });
    this.report = el('div', { className: 'report small', hidden: true });
    this.note = noteBox();
    this.body.append(
      el('h3', {}, 'Outputs ', this.status),
      this.note,
      el('div', { className: 'table-scroll' }, this.outputs),
      this.report,
      el('h3', {}, 'Inputs ', el('span', { className: 'muted' }, 'a slot given again starts the next vertex')),
      this.inputs.node,
      el('h3', {}, 'Constants'),
      this.constants.node);
  }
  saveInputs() {
    return { inputs: this.inputs.save(), constants: this.constants.save() };
  }
  restoreInputs(saved) {
    this.inputs.restore(saved.inputs);
    this.constants.restore(saved.constants);
  }
  start() {
    if (this.closed || !view.file || !view.file.ok) return;
    const run = this.newRun();
    const options = [...this.inputs.options('input'), ...this.constants.options('const')];
    const sent = send({ type: 'run', path: this.path, run, stdin: '', options });
    this.status.textContent = sent ? 'running…' : 'not connected';
    this.status.className = sent ? 'running' : 'bad';
  }
  onFile(file) {
    if (file.ok) {
      showNote(this.note, '', '');
      this.outputs.classList.remove('stale');
      this.start();
    } else {
      showNote(this.note, staleText(file, this.outputs.rows.length > 0), '');
      this.outputs.classList.add('stale');
    }
  }
  onRunEnd(msg) {
    if (msg.run !== this.run) return;
    this.status.textContent = msg.status === 'ok' ? '' : runStatusText(msg);
    this.status.className = runStatusClass(msg);
    this.report.hidden = !msg.report || msg.status === 'ok';
    if (!this.report.hidden) setReport(this.report, msg.report);
    const vertices = msg.json && Array.isArray(msg.json.vertices) ? msg.json.vertices : null;
    if (vertices) this.showOutputs(vertices);
    this.outputs.classList.toggle('stale', !vertices);
  }
  showOutputs(vertices) {
    this.outputs.textContent = '';
    this.outputs.append(el('thead', {}, el('tr', {},
      ...['vertex', 'output', 'x', 'y', 'z', 'w'].map((h) => el('th', {}, h)))));
    const body = el('tbody');
    vertices.forEach((outputs, index) => {
      Object.entries(outputs || {}).forEach(([name, lanes], k) => {
        const row = el('tr', { className: k === 0 ? 'first' : '' },
          el('td', { className: 'muted' }, k === 0 ? String(index) : ''),
          el('td', { className: 'reg-name' }, name));
        for (const lane of Array.isArray(lanes) ? lanes : []) {
          row.append(el('td', {
            className: `num${lane === 0 ? ' zero' : ''}`,
            title: lane === null ? 'not a finite number' : String(lane),
          }, laneText(lane)));
        }
        body.append(row);
      });
    });
    if (!vertices.length) body.append(el('tr', {}, el('td', { colSpan: 6, className: 'muted' }, 'no vertices')));
    this.outputs.append(body);
  }
}

const PANELS = {
  shader: ShaderPanel,
  lima: LimaPanel,
  masfix: MasfixPanel,
  vertex: VertexPanel,
  none: NonePanel,
};

connect();
