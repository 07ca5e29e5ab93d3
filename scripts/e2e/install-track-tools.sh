#!/usr/bin/env bash
# Installs Debian's readers of track files for the Export Track checks
# (test/engine/exportTrackTools.test.ts): GDAL's ogrinfo/ogr2ogr (gdal-bin), gpsbabel and xmllint
# (libxml2-utils). Idempotent; waits for apt's lock (other pieces may hold it) and refreshes the
# package lists once when an install fails (a fresh machine has none).
set -euo pipefail
have_all() { command -v ogrinfo >/dev/null && command -v gpsbabel >/dev/null && command -v xmllint >/dev/null; }
have_all && exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 "$@"; }
packages=(gdal-bin gpsbabel libxml2-utils)
echo "[install-track-tools] installing ${packages[*]} with apt-get" >&2
if ! apt_get install -y --no-install-recommends "${packages[@]}" >&2; then
  echo "[install-track-tools] install failed; refreshing the package lists and trying again" >&2
  apt_get update >&2
  apt_get install -y --no-install-recommends "${packages[@]}" >&2
fi
have_all || { echo "[install-track-tools] ogrinfo, gpsbabel or xmllint still missing" >&2; exit 1; }
