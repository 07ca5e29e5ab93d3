#!/usr/bin/env bash
# `npm test`: the type check (tsc over the nodes, tests, sandbox, scripts and benchmarks) and every
# jest suite under the host's zone, side by side: on a 2-core machine jest runs its suites in one
# worker and tsc takes the other core. Fails when either fails. Arguments go to jest.
set -uo pipefail
cd "$(dirname "$0")/.."

node_modules/.bin/tsc -p tsconfig.dev.json &
tsc_pid=$!
node_modules/.bin/jest "$@"
jest_status=$?
wait "$tsc_pid"
tsc_status=$?
[ "$tsc_status" -eq 0 ] || echo "npm test: tsc -p tsconfig.dev.json found type errors (above)" >&2
exit $(( jest_status != 0 || tsc_status != 0 ))
