'use strict';
// Checks that a .vsix holds what the extension needs and nothing of its development:
//   node scripts/check-vsix.js polyasm-0.1.0.vsix
// Exits 1, listing what is wrong, otherwise prints a summary.

const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');

/** The names of the entries of a zip file, read from its central directory. */
function zipEntries(file) {
  const zip = fs.readFileSync(file);
  // The end-of-central-directory record is in the last 22 + 65535 bytes (its comment at most).
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) {
    throw new Error(`${file} is not a zip file`);
  }
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) {
      throw new Error(`${file}: broken central directory at byte ${offset}`);
    }
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    names.push(zip.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

function check(vsix) {
  const entries = new Set(zipEntries(vsix));
  const has = (name) => entries.has(`extension/${name}`);
  const problems = [];
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

  const required = ['package.json', manifest.main.replace(/^\.\//, ''), 'executable.js'];
  for (const language of manifest.contributes.languages) {
    required.push(language.configuration.replace(/^\.\//, ''));
  }
  for (const grammar of manifest.contributes.grammars) {
    required.push(grammar.path.replace(/^\.\//, ''));
  }
  // Every package the client needs at run time: those package-lock.json does not mark dev.
  for (const [where, pkg] of Object.entries(lock.packages)) {
    if (where !== '' && !pkg.dev) {
      required.push(`${where}/package.json`);
    }
  }
  for (const name of required) {
    if (!has(name)) {
      problems.push(`missing: ${name}`);
    }
  }
  const names = [...entries];
  for (const [what, pattern] of [
    ['the README', /^extension\/readme\.md$/i],
    ['the LICENSE', /^extension\/license(\.txt)?$/i],
  ]) {
    if (!names.some((name) => pattern.test(name))) {
      problems.push(`missing: ${what}`);
    }
  }
  const forbidden = /^extension\/(test\/|scripts\/|ci\.sh$|package-lock\.json$|\.gitignore$|.*\.vsix$)/;
  for (const name of names.filter((name) => forbidden.test(name))) {
    problems.push(`should not be packaged: ${name}`);
  }
  // A dev dependency in the package means .vscodeignore or the dependency lists went wrong.
  for (const [where, pkg] of Object.entries(lock.packages)) {
    if (pkg.dev && has(`${where}/package.json`)) {
      problems.push(`dev dependency packaged: ${where}`);
    }
  }
  return { problems, count: entries.size, required: required.length };
}

const vsix = process.argv[2];
if (!vsix) {
  console.error('usage: node scripts/check-vsix.js FILE.vsix');
  process.exit(2);
}
let result;
try {
  result = check(vsix);
} catch (error) {
  console.error(`${vsix}: ${error.message}`);
  process.exit(1);
}
const { problems, count, required } = result;
if (problems.length > 0) {
  console.error(`${vsix}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`${vsix}: ${count} entries, the ${required} required files among them, no test or dev files`);
