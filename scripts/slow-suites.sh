# The suites that mostly wait (real minute windows, stalled services against a poll's time budget,
# Retry-After, a day of polls, many processes, npm pack, Debian's track-file readers installed and
# run) rather than compute: `npm test` leaves them
# out and `npm run test:slow` runs them (scripts/test.sh); the zone matrix runs the marked ones in a
# share of their own (scripts/test-zones.sh). Sourced by both.
SLOW_SUITES=(
  test/engine/sharedAccount.test.ts
  test/engine/triggerDigest.test.ts
  test/engine/triggerUnattended.test.ts
  test/engine/triggerCombinations.test.ts
  test/reliability/reliability.test.ts
  test/package/checkPackage.test.ts
  test/engine/exportTrackTools.test.ts
)
