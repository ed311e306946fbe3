'use strict';
// Finds the file the `polyasm.path` setting names, the way a shell would, so that a missing
// executable is one clear message before the language client tries to start it.

const fs = require('fs');
const os = require('os');
const path = require('path');

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of the executable `setting` names, or `undefined` when there is none.
 *
 * - `~/...` is under the home folder;
 * - a path with a folder in it is taken as it is, relative to `baseFolder` when relative;
 * - a bare name is searched for in the folders of `env.PATH` (with `env.PATHEXT`'s
 *   extensions on Windows).
 */
function findExecutable(setting, env = process.env, baseFolder = undefined) {
  let name = (setting || '').trim();
  if (name === '') {
    return undefined;
  }
  if (name === '~' || name.startsWith('~/') || name.startsWith('~\\')) {
    name = path.join(os.homedir(), name.slice(1));
  }
  const windows = process.platform === 'win32';
  const extensions = windows
    ? ['', ...(env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')]
    : [''];
  const candidates = (base) => extensions.map((extension) => base + extension);

  if (name.includes('/') || (windows && name.includes('\\'))) {
    const base = path.isAbsolute(name) ? name : path.resolve(baseFolder || process.cwd(), name);
    return candidates(base).find(isExecutableFile);
  }
  const folders = (env.PATH || env.Path || '').split(path.delimiter).filter((f) => f !== '');
  for (const folder of folders) {
    const found = candidates(path.join(folder, name)).find(isExecutableFile);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

module.exports = { findExecutable };
