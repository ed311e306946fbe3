'use strict';
// package.json and the language configurations it names: what VS Code reads before any code
// of the extension runs.

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const root = path.join(__dirname, '..');
const manifest = require('../package.json');

const DIALECTS = {
  'polyasm-vu': { extension: '.vu', scopeName: 'source.polyasm.vu', lineComment: '//' },
  'polyasm-nv2a': { extension: '.vsh', scopeName: 'source.polyasm.nv2a', lineComment: '//' },
  'polyasm-masfix': { extension: '.mx', scopeName: 'source.polyasm.masfix', lineComment: ';' },
  'polyasm-shader': { extension: '.sasm', scopeName: 'source.polyasm.shader', lineComment: '#' },
  'polyasm-lima': { extension: '.pp', scopeName: 'source.polyasm.lima', lineComment: '#' },
};

function configurationOf(id) {
  const language = manifest.contributes.languages.find((l) => l.id === id);
  assert.ok(language, `package.json contributes no language ${id}`);
  return JSON.parse(fs.readFileSync(path.join(root, language.configuration), 'utf8'));
}

/** The words VS Code sees in `line` with the language's word pattern. */
function wordsOf(id, line) {
  const pattern = new RegExp(configurationOf(id).wordPattern, 'g');
  return line.match(pattern);
}

test('the manifest names the extension as the project does', () => {
  assert.equal(manifest.name, 'polyasm');
  assert.equal(manifest.publisher, 'polyasm');
  assert.equal(manifest.version, '0.1.0');
  assert.equal(manifest.license, 'MIT OR Apache-2.0');
  assert.equal(manifest.repository.url, 'https://github.com/polyasm/polyasm');
  assert.match(manifest.engines.vscode, /^\^1\.\d+\.0$/);
  assert.equal(manifest.main, './extension.js');
  assert.ok(fs.existsSync(path.join(root, 'LICENSE')), 'LICENSE is missing');
  assert.ok(fs.existsSync(path.join(root, 'README.md')), 'README.md is missing');
});

test('five languages, each with its extension, configuration and grammar', () => {
  const languages = manifest.contributes.languages;
  assert.deepEqual(languages.map((l) => l.id).sort(), Object.keys(DIALECTS).sort());
  for (const language of languages) {
    const dialect = DIALECTS[language.id];
    assert.deepEqual(language.extensions, [dialect.extension]);
    assert.ok(language.aliases.length > 0, `${language.id} has no alias`);
    const configuration = configurationOf(language.id);
    assert.equal(configuration.comments.lineComment, dialect.lineComment);
    const grammars = manifest.contributes.grammars.filter((g) => g.language === language.id);
    assert.equal(grammars.length, 1, `${language.id} needs one grammar`);
    assert.equal(grammars[0].scopeName, dialect.scopeName);
    const grammar = JSON.parse(fs.readFileSync(path.join(root, grammars[0].path), 'utf8'));
    assert.equal(grammar.scopeName, dialect.scopeName);
  }
});

test('the settings and their defaults', () => {
  const properties = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(properties).sort(), [
    'polyasm.inlayHints',
    'polyasm.path',
    'polyasm.trace.server',
  ]);
  assert.equal(properties['polyasm.path'].type, 'string');
  assert.equal(properties['polyasm.path'].default, 'polyasm');
  assert.equal(properties['polyasm.inlayHints'].type, 'boolean');
  assert.equal(properties['polyasm.inlayHints'].default, false);
  assert.deepEqual(properties['polyasm.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.equal(properties['polyasm.trace.server'].default, 'off');
  // An untrusted workspace must not choose the program the extension runs.
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, [
    'polyasm.path',
  ]);
});

test('the extension activates for each of its languages', () => {
  for (const id of Object.keys(DIALECTS)) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), `no activation for ${id}`);
  }
  for (const command of manifest.contributes.commands) {
    assert.match(command.command, /^polyasm\./);
  }
});

test('the word pattern of each language keeps its names whole', () => {
  const cases = [
    ['polyasm-vu', 'shf r1 r1 xyxy 0b1100 .word 0x3f', ['shf', 'r1', 'r1', 'xyxy', '0b1100', '.word', '0x3f']],
    ['polyasm-nv2a', 'mul r0.xyz, -v2.zxy, #tint', ['mul', 'r0.xyz', 'v2.zxy', '#tint']],
    ['polyasm-nv2a', '%matmul4x4 oPos iPos #mvp[1]', ['%matmul4x4', 'oPos', 'iPos', '#mvp', '1']],
    ['polyasm-masfix', '%define LAST 100', ['%define', 'LAST', '100']],
    ['polyasm-masfix', ':loop ldr& 10 ; brltm< 15', ['loop', 'ldr&', '10', 'brltm<', '15']],
    ['polyasm-masfix', '%std:if(ne, { outu 1 }) !next_id()', ['%std:if', 'ne', 'outu', '1', '!next_id']],
    ['polyasm-shader', 'load(s1, -2.5e-1) # s1', ['load', 's1', '-2.5e-1', 's1']],
    ['polyasm-lima', 'max_pos.v1 $0.xy ^const0.xxxx abs($1)', ['max_pos.v1', '$0.xy', '^const0.xxxx', 'abs', '$1']],
    ['polyasm-lima', 'load.perspective.w.v $2 0.25', ['load.perspective.w.v', '$2', '0.25']],
  ];
  for (const [id, line, words] of cases) {
    assert.deepEqual(wordsOf(id, line), words, `${id}: ${line}`);
  }
});

test('bracket pairs are pairs and comments are what each dialect writes', () => {
  for (const id of Object.keys(DIALECTS)) {
    const configuration = configurationOf(id);
    for (const pair of configuration.brackets) {
      assert.equal(pair.length, 2);
    }
    for (const pair of configuration.autoClosingPairs) {
      assert.ok(pair.open && pair.close, `${id}: ${JSON.stringify(pair)}`);
    }
  }
  assert.deepEqual(configurationOf('polyasm-vu').comments.blockComment, ['/*', '*/']);
  assert.deepEqual(configurationOf('polyasm-nv2a').comments.blockComment, ['/*', '*/']);
  for (const id of ['polyasm-masfix', 'polyasm-shader', 'polyasm-lima']) {
    assert.equal(configurationOf(id).comments.blockComment, undefined, `${id} has no block comments`);
  }
});
