import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

let wallBefore = Date.now();
let elapsed = wallBefore;

/**
 * The wall clock's time as the pacer counts it: it moves on as the wall clock does, and stands still
 * when the wall clock is set back (NTP, a manual fix, a restored VM). Pauses, the rate window and the
 * learned rate are spans from a moment; measured on a clock set back an hour, each of them held every
 * request on the account for that hour. Set forward, it moves on too: a window may end early, and the
 * 429 that may follow is waited out as any other. Not performance.now: Date.now is read at each call,
 * so the tests' fake timers, which skip the pacer's minutes, move it on.
 */
function pacerNow(): number {
	const wall = Date.now();
	elapsed += Math.max(0, wall - wallBefore);
	wallBefore = wall;
	return elapsed;
}

export const systemClock: Clock = { now: pacerNow, sleep };
