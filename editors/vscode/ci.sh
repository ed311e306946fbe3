#!/usr/bin/env bash
# CI for the VS Code extension: install what package-lock.json pins, run the tests, build the
# .vsix and check what it holds. Run from anywhere: editors/vscode/ci.sh
set -euo pipefail
cd "$(dirname "$0")"

for program in node npm; do
    if ! command -v "$program" >/dev/null 2>&1; then
        echo "editors/vscode/ci.sh: $program is required (Node.js 20 or newer)" >&2
        exit 1
    fi
done
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
    echo "editors/vscode/ci.sh: Node.js 20 or newer is required, found $(node --version)" >&2
    exit 1
fi

vsix="polyasm-$(node -p 'require("./package.json").version').vsix"
rm -f "$vsix"

# --ignore-scripts: the one install script (vsce-sign's) serves signing, which packaging does not do.
npm ci --ignore-scripts --no-audit --no-fund
npm test
# Standard input is no terminal, so vsce never waits for an answer to a question.
npm run package </dev/null

if [ ! -f "$vsix" ]; then
    echo "editors/vscode/ci.sh: npm run package wrote no $vsix" >&2
    exit 1
fi
node scripts/check-vsix.js "$vsix"
