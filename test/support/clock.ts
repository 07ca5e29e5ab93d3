/** Every timer stays real: backoff waits and sockets must still end while the date is faked. */
const REAL_TIMERS = [
	'nextTick',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
	'queueMicrotask',
	'hrtime',
	'performance',
] as const;

/**
 * Fakes Date only, starting at `start`; it keeps running with real time between jumps. Node and
 * sandbox share it, so a test can move both five minutes on between polls. Returns the jump.
 */
export function fakeDateFrom(start: number): (at: number) => void {
	jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], advanceTimers: true, now: start });
	return (at) => jest.setSystemTime(at);
}

/** Time that passes only when the pacer sleeps or a test moves it on. */
export function fakeClock() {
	return {
		time: 0,
		now() {
			return this.time;
		},
		async sleep(ms: number) {
			this.time += ms;
		},
	};
}
