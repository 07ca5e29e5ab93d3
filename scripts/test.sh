#!/usr/bin/env bash
# `npm test`, the fast loop: the type check (tsc over the nodes, tests, sandbox, scripts and
# benchmarks) beside every jest suite but the slow ones (scripts/slow-suites.sh), under the host's
# zone. Fails when either fails. Arguments go to jest.
#
# `npm run test:slow` (`scripts/test.sh --slow`): only the slow suites, which mostly wait (real
# minute windows, stalled services against a poll's time budget, Retry-After, a day of polls, many
# processes, npm pack) rather than compute. .ci/run runs both; a plain
# `npx jest <suite>` runs any suite.
set -uo pipefail
cd "$(dirname "$0")/.."

source scripts/slow-suites.sh

if [ "${1:-}" = --slow ]; then
  shift
  exec node_modules/.bin/jest "$@" "${SLOW_SUITES[@]}"
fi

node_modules/.bin/tsc -p tsconfig.dev.json &
tsc_pid=$!
# Given here, the patterns replace jest.config.js's: test/host again (the host suites, npm run test:host).
node_modules/.bin/jest $(printf -- '--testPathIgnorePatterns=%s ' "${SLOW_SUITES[@]}" /node_modules/ test/host/) "$@"
jest_status=$?
wait "$tsc_pid"
tsc_status=$?
[ "$tsc_status" -eq 0 ] || echo "npm test: tsc -p tsconfig.dev.json found type errors (above)" >&2
exit $(( jest_status != 0 || tsc_status != 0 ))
