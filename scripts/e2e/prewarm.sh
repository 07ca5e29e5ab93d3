#!/usr/bin/env bash
# Reads into the page cache the files each installed n8n read at its start in an earlier run (the
# list scripts/n8n/record-boot-files.cjs wrote into the install), so that the lanes' n8n, several
# starting at once, do not wait on the disk: .ci/run runs it while npm ci and the build use the
# cores. An install without a list yet is skipped (its first `n8n start` writes one).
set -uo pipefail
CACHE="${SATELLITE_E2E_CACHE:-$HOME/.cache/n8n-nodes-satellite-tracking}"

for list in "$CACHE"/n8n-*/.boot-files; do
  [ -f "$list" ] || { echo "[prewarm] no list of boot files in $CACHE yet"; continue; }
  t0=$SECONDS
  # Straight to /dev/null: through a pipe to count the bytes, the copies cost twice the CPU.
  xargs -r -d '\n' -a "$list" cat -- >/dev/null 2>&1 </dev/null
  echo "[prewarm] $(basename "$(dirname "$list")"): $(wc -l <"$list") files in $((SECONDS - t0)) s"
done
