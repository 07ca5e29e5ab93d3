#!/usr/bin/env bash
# The npm scripts of the real-n8n lanes (`npm run test:e2e`, `test:e2e:queue`, ...):
#
#   bash scripts/e2e/lane.sh <needs> -- <runner command...>
#
#   1. installs what the lane needs (comma-separated pieces of scripts/e2e/install.sh: 2.8, 2.41,
#      services, ...), side by side; cold: minutes, warm: a second;
#   2. builds the package (npm run build);
#   3. runs the lane's runner (e.g. `tsx scripts/e2e/run-e2e.ts`), which packs dist/ and starts and
#      stops everything it needs.
# .ci/run does 1 and 2 once for all lanes and calls the runners itself.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ $# -ge 3 ] && [ "$2" = -- ] || { echo "usage: $0 <needs,...> -- <runner command...>" >&2; exit 2; }
IFS=',' read -r -a needs <<<"$1"
shift 2

step() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "--- lane: $name"
  "$@"
  echo "--- lane: $name took $((SECONDS - t0))s"
}

step "install ${needs[*]}" bash scripts/e2e/install.sh "${needs[@]}"
step "build" npm run build
step "$*" npx "$@"
