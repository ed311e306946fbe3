'use strict';
// The grammars against the annotated samples in test/syntax/, with vscode-tmgrammar-test.

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');

const root = path.join(__dirname, '..');
const manifest = require('../package.json');
const tool = path.join(root, 'node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
const samples = path.join(root, 'test', 'syntax');

/** Runs vscode-tmgrammar-test on `files` with the grammars of `config` (a package.json). */
function runTool(config, files) {
  assert.ok(fs.existsSync(tool), `${tool} is missing: run \`npm ci\` first`);
  return spawnSync(process.execPath, [tool, '--compact', '--config', config, ...files], {
    cwd: root,
    encoding: 'utf8',
  });
}

function sampleFiles() {
  return fs.readdirSync(samples).map((name) => path.join(samples, name));
}

/** Every scope name a grammar can give a token: `name`s and `contentName`s, captures too. */
function scopesOf(grammar) {
  const scopes = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (node !== null && typeof node === 'object') {
      for (const key of ['name', 'contentName']) {
        if (typeof node[key] === 'string' && node !== grammar) {
          node[key].split(/\s+/).forEach((scope) => scopes.add(scope));
        }
      }
      Object.values(node).forEach(visit);
    }
  };
  visit(grammar);
  return scopes;
}

/** The sample files whose header names `scopeName`, and the scopes their assertions require. */
function assertedScopes(scopeName) {
  const asserted = new Set();
  const files = [];
  for (const file of sampleFiles()) {
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    const header = lines[0].match(/^(\S+) SYNTAX TEST "([^"]+)"/);
    if (header === null || header[2] !== scopeName) {
      continue;
    }
    files.push(file);
    const comment = header[1];
    for (const line of lines.slice(1)) {
      const assertion = line.startsWith(comment)
        ? line.slice(comment.length).match(/^\s*(?:\^+|<~*-+)\s+(.*)$/)
        : null;
      if (assertion === null) {
        continue;
      }
      // Scopes after a ` - ` are ones the token must not have; they prove nothing is covered.
      const required = assertion[1].startsWith('- ') ? '' : assertion[1].split(' - ')[0];
      required.split(/\s+/).filter(Boolean).forEach((scope) => asserted.add(scope));
    }
  }
  return { files, asserted };
}

test('every annotated sample gets the scopes its assertions name', () => {
  const files = sampleFiles();
  assert.ok(files.length >= 5, `expected a sample per dialect in ${samples}`);
  const result = runTool(path.join(root, 'package.json'), files);
  assert.equal(result.status, 0, `vscode-tmgrammar-test failed:\n${result.stdout}${result.stderr}`);
  for (const file of files) {
    assert.match(result.stdout, new RegExp(`${path.basename(file).replace('.', '\\.')} run successfuly`));
  }
});

for (const { language, scopeName, path: grammarPath } of manifest.contributes.grammars) {
  test(`every scope of the ${language} grammar is asserted in a sample`, () => {
    const grammar = JSON.parse(fs.readFileSync(path.join(root, grammarPath), 'utf8'));
    assert.equal(grammar.scopeName, scopeName);
    const { files, asserted } = assertedScopes(scopeName);
    assert.ok(files.length > 0, `no sample in ${samples} has the header SYNTAX TEST "${scopeName}"`);
    const missing = [...scopesOf(grammar)].filter((scope) => !asserted.has(scope));
    assert.deepEqual(missing, [], `scopes no assertion of ${files.join(', ')} names`);
  });
}

test('a grammar that scopes one token wrongly fails the samples', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'polyasm-grammar-'));
  try {
    // A copy of the extension's grammars in which every Masfix mnemonic is scoped as a label.
    fs.cpSync(path.join(root, 'syntaxes'), path.join(scratch, 'syntaxes'), { recursive: true });
    fs.copyFileSync(path.join(root, 'package.json'), path.join(scratch, 'package.json'));
    const broken = path.join(scratch, 'syntaxes', 'masfix.tmLanguage.json');
    const grammar = JSON.parse(fs.readFileSync(broken, 'utf8'));
    assert.equal(grammar.repository.instruction.name, 'keyword.operator.mnemonic.polyasm');
    grammar.repository.instruction.name = 'variable.other.label.polyasm';
    fs.writeFileSync(broken, JSON.stringify(grammar));

    const result = runTool(path.join(scratch, 'package.json'), [path.join(samples, 'masfix.mx')]);
    assert.notEqual(result.status, 0, `the broken grammar passed:\n${result.stdout}`);
    assert.match(result.stdout, /missing required scopes: \[ keyword\.operator\.mnemonic\.polyasm \]/i);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
