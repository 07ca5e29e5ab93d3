#!/usr/bin/env bash
# `npm run test:e2e:queue`: the package in n8n 2.41.1 in queue mode (main + 2 workers, Redis, PostgreSQL).
#   1. installs n8n 2.41.1 into the cache outside the repo if missing (scripts/e2e/install-n8n.sh);
#   2. installs Debian's redis-server and postgresql if missing (scripts/e2e/queue/install-services.sh);
#   3. builds the package (npm run build);
#   4. runs the lane (scripts/e2e/queue/run-queue.ts), which starts and stops everything it needs.
set -euo pipefail
cd "$(dirname "$0")/../../.."

step() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "--- test:e2e:queue: $name"
  "$@"
  echo "--- test:e2e:queue: $name took $((SECONDS - t0))s"
}

step "n8n install, lane 2.41" bash scripts/e2e/install-n8n.sh 2.41
step "Redis + PostgreSQL packages" bash scripts/e2e/queue/install-services.sh
step "build" npm run build
step "queue lane" npx tsx scripts/e2e/queue/run-queue.ts
