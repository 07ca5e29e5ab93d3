#!/usr/bin/env bash
# `npm run test:e2e`: the package in a real n8n, on both lanes (n8n 2.8.4 / Node 20 and n8n 2.41.1 / Node 24).
#   1. installs each lane's n8n into the cache outside the repo if missing (scripts/e2e/install-n8n.sh;
#      cold: several minutes per lane, warm: instant), one after the other;
#   2. builds the package (npm run build);
#   3. runs the lanes one after the other (scripts/e2e/run-e2e.ts); one failing lane fails the run.
# E2E_LANES=2.8 (or 2.41) restricts the run to one lane. SATELLITE_E2E_CACHE moves the cache.
set -euo pipefail
cd "$(dirname "$0")/../.."

LANES="${E2E_LANES:-2.8,2.41}"
IFS=',' read -r -a LANE_LIST <<<"$LANES"

step() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "--- test:e2e: $name"
  "$@"
  echo "--- test:e2e: $name took $((SECONDS - t0))s"
}

for lane in "${LANE_LIST[@]}"; do
  step "n8n install, lane $lane" bash scripts/e2e/install-n8n.sh "$lane"
done
step "build" npm run build
lane_args=()
for lane in "${LANE_LIST[@]}"; do lane_args+=("--lane=$lane"); done
step "run lanes ${LANES}" npx tsx scripts/e2e/run-e2e.ts "${lane_args[@]}"
