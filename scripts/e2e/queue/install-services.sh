#!/usr/bin/env bash
# Installs what the queue-mode lane (`npm run test:e2e:queue`) needs besides n8n: Debian's Redis and
# PostgreSQL packages. Idempotent: does nothing when both are present. Prints, as its last two lines,
#   REDIS_SERVER=<path of redis-server>
#   PG_BIN=<folder holding initdb, pg_ctl, postgres>
# which scripts/e2e/queue/services.ts reads. The lane never uses the system services these packages
# set up: it starts throw-away instances in a temp folder.
set -euo pipefail

log() { echo "[install-services] $*" >&2; }

find_pg_bin() {
  # Debian keeps each major version's server binaries under /usr/lib/postgresql/<major>/bin; take the newest.
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
}

find_redis() { command -v redis-server || true; }

missing=()
[ -n "$(find_redis)" ] || missing+=(redis-server)
[ -n "$(find_pg_bin)" ] || missing+=(postgresql)

if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || { log "need root to apt-get install ${missing[*]} (or install them yourself)"; exit 1; }
  command -v apt-get >/dev/null || { log "no apt-get: install ${missing[*]} yourself"; exit 1; }
  log "installing ${missing[*]} with apt-get"
  # Installing a service package starts it (redis on 6379, a PostgreSQL cluster on 5432) unless
  # policy-rc.d forbids it. The lane needs none of them: forbid it for this install only.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  trap '[ -z "$created_policy" ] || rm -f /usr/sbin/policy-rc.d' EXIT
  apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; }
  # The package lists may be missing (a fresh container) or stale (an old candidate is gone).
  if ! apt_get install -y --no-install-recommends "${missing[@]}" >&2; then
    log "install failed; refreshing the package lists and trying again"
    apt_get update >&2
    apt_get install -y --no-install-recommends "${missing[@]}" >&2
  fi
fi

REDIS_SERVER=$(find_redis)
PG_BIN=$(find_pg_bin)
[ -n "$REDIS_SERVER" ] || { log "redis-server still missing"; exit 1; }
[ -n "$PG_BIN" ] || { log "PostgreSQL server binaries still missing under /usr/lib/postgresql/*/bin"; exit 1; }
log "$("$REDIS_SERVER" --version | cut -d' ' -f1-3); PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}')"
echo "REDIS_SERVER=$REDIS_SERVER"
echo "PG_BIN=$PG_BIN"
