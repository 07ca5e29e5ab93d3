import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	/**
	 * The calendar's time (ms since the epoch), read only for where a calendar second begins: a
	 * service that counts requests per calendar second starts its count there. Without it, `now`.
	 */
	calendarNow?(): number;
}

/**
 * The pacer's time: milliseconds that pass whatever the system clock does. Pauses, the rate window
 * and the learned rate are spans from a moment; measured on the wall clock, one set back an hour
 * (NTP, a manual fix, a restored VM) held every request on the account for that hour, and one that
 * flipped back and forth let each forward flip empty the Max Requests per Minute window. Read at each
 * call, so tests' fake timers (which fake `performance` too) move it on.
 */
export const systemClock: Clock = { now: () => performance.now(), sleep, calendarNow: () => Date.now() };
