'use strict';
// extension.js and executable.js outside VS Code: `vscode` and the language client are stand-ins
// that record what the extension asks of them.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const { findExecutable } = require('../executable');
const manifest = require('../package.json');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polyasm-client-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A file in the scratch folder; executable unless `mode` says otherwise. */
function scratchFile(relative, mode = 0o755) {
  const file = path.join(scratch, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, mode);
  return file;
}

/** A world for one activation: settings, what the stand-ins saw, and ways to change it. */
function world(settings) {
  const seen = { errors: [], clients: [], commands: {}, refreshed: [], lines: [] };
  const configurationListeners = [];
  const editors = [{ document: { uri: 'file:///a.vu' } }, { document: { uri: 'file:///b.pp' } }];
  const vscode = {
    workspace: {
      workspaceFolders: [{ uri: { scheme: 'file', fsPath: scratch } }],
      getConfiguration(section) {
        assert.equal(section, 'polyasm');
        return { get: (key, fallback) => (key in settings ? settings[key] : fallback) };
      },
      onDidChangeConfiguration(listener) {
        configurationListeners.push(listener);
        return { dispose() {} };
      },
    },
    window: {
      visibleTextEditors: editors,
      createOutputChannel: () => ({ appendLine: (line) => seen.lines.push(line), dispose() {} }),
      showErrorMessage(message) {
        seen.errors.push(message);
        return Promise.resolve(undefined);
      },
    },
    commands: {
      registerCommand(id, run) {
        seen.commands[id] = run;
        return { dispose() {} };
      },
      executeCommand() {},
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      this.running = false;
      this.disposed = false;
      this.notifications = [];
      seen.clients.push(this);
    }
    async start() {
      this.running = true;
    }
    isRunning() {
      return this.running;
    }
    needsStop() {
      return this.running;
    }
    async dispose() {
      this.running = false;
      this.disposed = true;
    }
    async sendNotification(type, params) {
      this.notifications.push([type.method, params]);
    }
    getFeature(method) {
      assert.equal(method, 'textDocument/inlayHint');
      return {
        getProvider: (document) => ({
          onDidChangeInlayHints: { fire: () => seen.refreshed.push(document.uri) },
        }),
      };
    }
  }
  const languageClient = {
    LanguageClient,
    DidChangeConfigurationNotification: { type: { method: 'workspace/didChangeConfiguration' } },
  };
  return {
    seen,
    settings,
    modules: { vscode, 'vscode-languageclient/node': languageClient },
    /** Tells the extension that the setting `key` (`polyasm.path`, ...) changed. */
    change(key) {
      const event = { affectsConfiguration: (s) => key === s || key.startsWith(`${s}.`) };
      configurationListeners.forEach((listener) => listener(event));
    },
  };
}

/** A fresh copy of extension.js that sees `w`'s stand-ins in place of the real modules. */
function loadExtension(w) {
  const load = Module._load;
  Module._load = function (request, ...rest) {
    return request in w.modules ? w.modules[request] : load.call(this, request, ...rest);
  };
  try {
    delete require.cache[require.resolve('../extension')];
    return require('../extension');
  } finally {
    Module._load = load;
  }
}

/** Lets the extension's queued starts and stops run. */
async function settle() {
  for (let i = 0; i < 10; i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('a missing executable is one error message naming polyasm.path, and nothing starts', async () => {
  const w = world({ path: 'polyasm-not-installed-here' });
  await loadExtension(w).activate({ subscriptions: [] });
  await settle();
  assert.equal(w.seen.errors.length, 1);
  assert.match(w.seen.errors[0], /"polyasm-not-installed-here" was not found/);
  assert.match(w.seen.errors[0], /polyasm\.path/);
  assert.equal(w.seen.clients.length, 0);
});

test('the client starts `polyasm lsp` for the five languages with the inlay hint setting', async () => {
  const executable = scratchFile('bin/polyasm');
  const w = world({ path: executable, inlayHints: true });
  const context = { subscriptions: [] };
  await loadExtension(w).activate(context);
  await settle();
  assert.deepEqual(w.seen.errors, []);
  assert.equal(w.seen.clients.length, 1);
  const client = w.seen.clients[0];
  assert.equal(client.id, 'polyasm');
  assert.ok(client.running);
  assert.deepEqual(client.serverOptions, { command: executable, args: ['lsp'] });
  assert.deepEqual(
    client.clientOptions.documentSelector,
    manifest.contributes.languages.map((l) => ({ scheme: 'file', language: l.id })),
  );
  assert.deepEqual(client.clientOptions.initializationOptions(), { inlayHints: true });
  w.settings.inlayHints = false;
  assert.deepEqual(client.clientOptions.initializationOptions(), { inlayHints: false });
  assert.ok(context.subscriptions.length >= 3, 'the channel, the listener and the command');
});

test('a relative polyasm.path is read from the workspace folder', async () => {
  const executable = scratchFile('target/debug/polyasm');
  const w = world({ path: './target/debug/polyasm' });
  await loadExtension(w).activate({ subscriptions: [] });
  await settle();
  assert.deepEqual(w.seen.errors, []);
  assert.equal(w.seen.clients[0].serverOptions.command, executable);
});

test('turning inlay hints on tells the server and asks the editor for them again', async () => {
  const w = world({ path: scratchFile('bin/polyasm'), inlayHints: false });
  await loadExtension(w).activate({ subscriptions: [] });
  await settle();
  w.settings.inlayHints = true;
  w.change('polyasm.inlayHints');
  await settle();
  const [client] = w.seen.clients;
  assert.deepEqual(client.notifications, [
    ['workspace/didChangeConfiguration', { settings: { polyasm: { inlayHints: true } } }],
  ]);
  assert.deepEqual(w.seen.refreshed, ['file:///a.vu', 'file:///b.pp']);
  assert.equal(w.seen.clients.length, 1, 'no restart for inlay hints');
  // Settings of other extensions change nothing.
  w.change('editor.fontSize');
  await settle();
  assert.equal(client.notifications.length, 1);
});

test('a new polyasm.path restarts the server with it, or says it is missing', async () => {
  const first = scratchFile('one/polyasm');
  const second = scratchFile('two/polyasm');
  const w = world({ path: first });
  await loadExtension(w).activate({ subscriptions: [] });
  await settle();
  w.settings.path = second;
  w.change('polyasm.path');
  await settle();
  assert.equal(w.seen.clients.length, 2);
  assert.ok(w.seen.clients[0].disposed);
  assert.equal(w.seen.clients[1].serverOptions.command, second);
  assert.ok(w.seen.clients[1].running);

  w.settings.path = path.join(scratch, 'three', 'polyasm');
  w.change('polyasm.path');
  await settle();
  assert.ok(w.seen.clients[1].disposed);
  assert.equal(w.seen.clients.length, 2);
  assert.equal(w.seen.errors.length, 1);
  assert.match(w.seen.errors[0], /polyasm\.path/);
});

test('the restart command starts a new server and deactivate stops it', async () => {
  const w = world({ path: scratchFile('bin/polyasm') });
  const extension = loadExtension(w);
  await extension.activate({ subscriptions: [] });
  await settle();
  assert.deepEqual(Object.keys(w.seen.commands), ['polyasm.restartServer']);
  assert.deepEqual(
    manifest.contributes.commands.map((c) => c.command),
    Object.keys(w.seen.commands),
  );
  await w.seen.commands['polyasm.restartServer']();
  await settle();
  assert.equal(w.seen.clients.length, 2);
  assert.ok(w.seen.clients[0].disposed);
  await extension.deactivate();
  assert.ok(w.seen.clients[1].disposed);
});

test('the stand-in method name is the protocol one', () => {
  const protocol = require('vscode-languageserver-protocol');
  assert.equal(
    protocol.DidChangeConfigurationNotification.type.method,
    'workspace/didChangeConfiguration',
  );
});

test('findExecutable searches PATH for a bare name and takes a path as it is', () => {
  const bin = path.dirname(scratchFile('path-a/polyasm'));
  const other = path.dirname(scratchFile('path-b/polyasm'));
  const notExecutable = path.dirname(scratchFile('path-c/polyasm', 0o644));
  const env = { PATH: [notExecutable, bin, other].join(path.delimiter) };
  assert.equal(findExecutable('polyasm', env), path.join(bin, 'polyasm'));
  assert.equal(findExecutable('polyasm', { PATH: notExecutable }), undefined);
  assert.equal(findExecutable('polyasm', { PATH: '' }), undefined);
  assert.equal(findExecutable('nothing-by-this-name', env), undefined);
  assert.equal(findExecutable('', env), undefined);
  assert.equal(findExecutable('  ', env), undefined);
  // A folder is not an executable, even one named like it.
  fs.mkdirSync(path.join(scratch, 'path-d', 'polyasm'), { recursive: true });
  assert.equal(findExecutable('polyasm', { PATH: path.join(scratch, 'path-d') }), undefined);
  // A path with a folder in it is not searched for on PATH.
  assert.equal(findExecutable(path.join(other, 'polyasm'), env), path.join(other, 'polyasm'));
  assert.equal(findExecutable('path-a/polyasm', env, scratch), path.join(bin, 'polyasm'));
  assert.equal(findExecutable('path-c/polyasm', env, scratch), undefined);
});

test('findExecutable reads ~/ as the home folder', () => {
  const home = process.env.HOME;
  process.env.HOME = path.join(scratch, 'home');
  try {
    assert.equal(os.homedir(), path.join(scratch, 'home'));
    const executable = scratchFile('home/tools/polyasm');
    assert.equal(findExecutable('~/tools/polyasm', { PATH: '' }), executable);
    assert.equal(findExecutable('~/tools/absent', { PATH: '' }), undefined);
  } finally {
    process.env.HOME = home;
  }
});
