'use strict';
// The polyasm extension: starts `polyasm lsp` for the five polyasm languages and keeps it in
// step with the `polyasm.*` settings.

const vscode = require('vscode');
const { LanguageClient, DidChangeConfigurationNotification } = require('vscode-languageclient/node');
const { findExecutable } = require('./executable');

const LANGUAGES = ['polyasm-vu', 'polyasm-nv2a', 'polyasm-masfix', 'polyasm-shader', 'polyasm-lima'];

/** The language client while one runs (or is starting). */
let client;
/** One output channel for every client this session starts, so a restart keeps its log. */
let outputChannel;
/** Starts and stops run one after another, so that quick setting changes cannot overlap. */
let queue = Promise.resolve();

function enqueue(task) {
  queue = queue.then(task).catch((error) => {
    outputChannel.appendLine(`polyasm: ${error instanceof Error ? error.message : String(error)}`);
  });
  return queue;
}

function settings() {
  return vscode.workspace.getConfiguration('polyasm');
}

/** The folder a relative `polyasm.path` is read from: the first workspace folder on disk. */
function workspaceFolderPath() {
  const folder = (vscode.workspace.workspaceFolders || [])[0];
  return folder && folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

async function start() {
  const configured = settings().get('path', 'polyasm');
  const command = findExecutable(configured, process.env, workspaceFolderPath());
  if (command === undefined) {
    const openSettings = 'Open Settings';
    vscode.window
      .showErrorMessage(
        `polyasm: the executable "${configured}" was not found. Install polyasm and put it on ` +
          'PATH, or set polyasm.path to the polyasm executable.',
        openSettings,
      )
      .then((choice) => {
        if (choice === openSettings) {
          vscode.commands.executeCommand('workbench.action.openSettings', 'polyasm.path');
        }
      });
    return;
  }
  outputChannel.appendLine(`polyasm: starting ${command} lsp`);
  client = new LanguageClient(
    'polyasm',
    'polyasm',
    { command, args: ['lsp'] },
    {
      documentSelector: LANGUAGES.map((language) => ({ scheme: 'file', language })),
      // A function, so that a restart after a crash sends the settings of that moment.
      initializationOptions: () => ({ inlayHints: settings().get('inlayHints', false) }),
      outputChannel,
    },
  );
  try {
    await client.start();
  } catch {
    // The client has shown the error and written it to the output channel.
  }
}

async function stop() {
  const running = client;
  client = undefined;
  if (running !== undefined && running.needsStop()) {
    await running.dispose();
  }
}

async function restart() {
  await stop();
  await start();
}

/** Sends the new `polyasm.inlayHints` and has the editor ask for the hints again. */
async function sendInlayHints() {
  if (client === undefined || !client.isRunning()) {
    return;
  }
  await client.sendNotification(DidChangeConfigurationNotification.type, {
    settings: { polyasm: { inlayHints: settings().get('inlayHints', false) } },
  });
  const feature = client.getFeature('textDocument/inlayHint');
  for (const editor of vscode.window.visibleTextEditors) {
    const provider = feature && feature.getProvider(editor.document);
    if (provider !== undefined) {
      provider.onDidChangeInlayHints.fire();
    }
  }
}

function activate(context) {
  outputChannel = vscode.window.createOutputChannel('polyasm');
  context.subscriptions.push(
    outputChannel,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('polyasm.path')) {
        enqueue(restart);
      } else if (event.affectsConfiguration('polyasm.inlayHints')) {
        enqueue(sendInlayHints);
      }
    }),
    vscode.commands.registerCommand('polyasm.restartServer', () => enqueue(restart)),
  );
  return enqueue(start);
}

function deactivate() {
  return enqueue(stop);
}

module.exports = { activate, deactivate };
