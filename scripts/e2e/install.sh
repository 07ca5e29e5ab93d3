#!/usr/bin/env bash
# Installs, side by side, what the real-n8n lanes and the lints need outside the package's own
# node_modules; each piece is idempotent and locked (a second caller waits, then finds it done), so
# warm it costs a second. Prints each piece's time; fails when any piece fails.
#
#   bash scripts/e2e/install.sh 2.8 2.41 services lint-tools node-cli browser
#
#   2.8 | 2.41 | node24 | node-cli   scripts/e2e/install-n8n.sh (the cache outside the repo)
#   services                         scripts/e2e/queue/install-services.sh (Debian's Redis, PostgreSQL)
#   lint-tools                       scripts/lint-tools.sh (tools/lint/node_modules)
#   browser                          scripts/e2e/install-chromium.sh (Debian's chromium, for the editor checks)
#   track-tools                      scripts/e2e/install-track-tools.sh (Debian's ogrinfo, gpsbabel, xmllint: Export Track's files read back)
# Cold, the two n8n installs are the long ones (minutes each); they run at the same time because
# most of an npm install is waiting on the registry and the disk.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ $# -gt 0 ] || { echo "usage: $0 2.8|2.41|node24|node-cli|services|lint-tools|browser|track-tools ..." >&2; exit 2; }
logs="$(mktemp -d "${TMPDIR:-/tmp}/satellite-install.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

declare -A pids=()
for piece in "$@"; do
  case "$piece" in
    2.8|2.41|node24|node-cli) cmd=(bash scripts/e2e/install-n8n.sh "$piece") ;;
    services) cmd=(bash scripts/e2e/queue/install-services.sh) ;;
    lint-tools) cmd=(bash scripts/lint-tools.sh) ;;
    browser) cmd=(bash scripts/e2e/install-chromium.sh) ;;
    track-tools) cmd=(bash scripts/e2e/install-track-tools.sh) ;;
    *) echo "install.sh: unknown piece \"$piece\"" >&2; exit 2 ;;
  esac
  # Each piece times itself: they end in any order.
  ( t0=$SECONDS; status=0; "${cmd[@]}" >"$logs/$piece.log" 2>&1 || status=$?; echo "$((SECONDS - t0))" >"$logs/$piece.time"; exit $status ) &
  pids[$piece]=$!
done

failed=()
for piece in "$@"; do
  if wait "${pids[$piece]}"; then status=ok; else status=FAILED; failed+=("$piece"); fi
  echo "[install] $piece: $status in $(cat "$logs/$piece.time")s"
  if [ "$status" != ok ]; then sed 's/^/    | /' "$logs/$piece.log" | tail -n 40; fi
done
[ ${#failed[@]} -eq 0 ] || { echo "[install] failed: ${failed[*]}" >&2; exit 1; }
