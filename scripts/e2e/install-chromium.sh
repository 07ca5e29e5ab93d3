#!/usr/bin/env bash
# Installs Debian's chromium (and nothing downloaded: playwright-core drives this one) for the editor
# checks and the screenshot. Idempotent. Waits for apt's lock rather than failing on it, since the
# services install (Redis, PostgreSQL) may hold it at the same time.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; }
echo "[install-chromium] installing Debian's chromium with apt-get" >&2
if ! apt_get install -y --no-install-recommends chromium >&2; then
  echo "[install-chromium] install failed; refreshing the package lists and trying again" >&2
  apt_get update >&2
  apt_get install -y --no-install-recommends chromium >&2
fi
[ -x /usr/bin/chromium ] || { echo "[install-chromium] /usr/bin/chromium still missing" >&2; exit 1; }
