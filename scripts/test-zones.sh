#!/usr/bin/env bash
# The time-zone matrix: the jest suites about days, midnights and zones, marked
# `// @host-zones: matrix` (test/support/hostZones.ts), under each extra host zone there
# (Europe/Berlin, America/New_York), all side by side. `npm test` runs every suite in a jest file of
# its own under the host's zone (UTC in CI), each under the zone guard. Here each zone's suites run
# in shares, each share one jest file (test/support/zoneMatrixShare.ts), so n8n's engine loads once
# per share instead of once per suite and zone: the marked slow suites (scripts/slow-suites.sh),
# which mostly wait, if any, and the rest. .ci/run runs this after `npm test`. `--list` prints the
# suites only. Extra arguments go to jest (e.g. `-t midnight`).
set -euo pipefail
cd "$(dirname "$0")/.."

mapfile -t lines < <(node_modules/.bin/tsx -e "
import { allSuites, suiteText, zoneMark, ZONES } from './test/support/hostZones';
console.log('ZONES ' + ZONES.join(' '));
for (const suite of allSuites()) if (zoneMark(suiteText(suite)) === 'matrix') console.log(suite);
")
read -r -a zones <<<"${lines[0]#ZONES }"
suites=("${lines[@]:1}")
if [ "${1:-}" = --list ]; then printf '%s\n' "${suites[@]}"; exit 0; fi
[ ${#suites[@]} -gt 0 ] || { echo "test-zones: no suite is marked // @host-zones: matrix" >&2; exit 1; }

source scripts/slow-suites.sh
declare -A share_suites=()
for suite in "${suites[@]}"; do
  if [[ " ${SLOW_SUITES[*]} " == *" $suite "* ]]; then share=slow; else share=rest; fi
  share_suites[$share]+="$suite"$'\n'
done

logs="$(mktemp -d "${TMPDIR:-/tmp}/satellite-zones.XXXXXX")"
trap 'rm -rf "$logs"' EXIT
declare -A pids=()
for zone in "${zones[@]}"; do
  for share in "${!share_suites[@]}"; do
    TZ="$zone" ZONE_MATRIX_SUITES="${share_suites[$share]}" node_modules/.bin/jest \
      --testMatch '<rootDir>/test/support/zoneMatrixShare.ts' "$@" >"$logs/${zone//\//_}.$share.log" 2>&1 &
    pids[$zone.$share]=$!
  done
done
failed=0
for zone in "${zones[@]}"; do
  for share in "${!share_suites[@]}"; do
    log="$logs/${zone//\//_}.$share.log"
    if wait "${pids[$zone.$share]}"; then status=passed; else status=FAILED; failed=1; fi
    echo "--- TZ=$zone, the $share: $(grep -c . <<<"${share_suites[$share]}") suites $status"
    if [ $status = FAILED ]; then cat "$log"; else grep -E '^(Tests|Time):' "$log"; fi
  done
done
exit $failed
