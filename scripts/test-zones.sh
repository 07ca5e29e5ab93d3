#!/usr/bin/env bash
# The time-zone matrix: the jest suites marked `// @host-zones: matrix` (test/support/hostZones.ts),
# under each extra host zone there (Europe/Berlin, America/New_York), the zones side by side, two jest
# workers each (the suites mostly wait). `npm test` runs every suite under the host's own zone (UTC in CI); .ci/run runs this
# after it. `--list` prints the suites only. Extra arguments go to jest.
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

logs="$(mktemp -d "${TMPDIR:-/tmp}/satellite-zones.XXXXXX")"
trap 'rm -rf "$logs"' EXIT
declare -A pids=()
for zone in "${zones[@]}"; do
  TZ="$zone" node_modules/.bin/jest --maxWorkers=2 "$@" "${suites[@]}" >"$logs/${zone//\//_}.log" 2>&1 &
  pids[$zone]=$!
done
failed=0
for zone in "${zones[@]}"; do
  if wait "${pids[$zone]}"; then status=passed; else status=FAILED; failed=1; fi
  echo "--- TZ=$zone: ${#suites[@]} suites $status"
  if [ $status = FAILED ]; then cat "$logs/${zone//\//_}.log"; else grep -E '^(Tests|Test Suites|Time):' "$logs/${zone//\//_}.log"; fi
done
exit $failed
