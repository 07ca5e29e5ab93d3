import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { EnvelopeError, unwrapEnvelope } from '../../nodes/shared/transport/envelope';
import { describeFailure, parseRetryAfter, TokenRequestError } from '../../nodes/shared/transport/failure';
import { accountKey, AccountQuota, quotaForAccount, RequestPacer } from '../../nodes/shared/transport/pacer';
import { fillPath, isRetryable, retryDelayMs } from '../../nodes/shared/transport/client';
import { joinUrl } from '../../credentials/baseUrl';
import { ENDPOINTS } from '../../nodes/shared/wire';
import { fakeClock } from '../support/clock';

describe('paths', () => {
	it('percent-encodes ids so they stay in their route', () => {
		expect(fillPath(ENDPOINTS.getLastLocation.path, { deviceId: '../users' })).toBe('/api/devices/..%2Fusers/lastLocation');
		expect(fillPath(ENDPOINTS.getDevice.path, { deviceId: 'a/b?x#y %z' })).toBe('/api/devices/a%2Fb%3Fx%23y%20%25z');
	});
	it('refuses dot segments and empty ids', () => {
		expect(() => fillPath(ENDPOINTS.getDevice.path, { deviceId: '..' })).toThrow(RangeError);
		expect(() => fillPath(ENDPOINTS.getDevice.path, {})).toThrow('deviceId is empty');
	});
	it('keys an account by what the service sees: host case, default port, trailing slash and space aside', () => {
		const key = accountKey('https://api.plaspy.com', 'ops@example.com');
		expect(accountKey('https://API.plaspy.com', 'ops@example.com')).toBe(key);
		expect(accountKey(' https://api.plaspy.com:443/ ', ' Ops@example.com')).toBe(key);
		expect(accountKey('https://api.plaspy.com:8443', 'ops@example.com')).not.toBe(key);
		expect(accountKey('http://api.plaspy.com', 'ops@example.com')).not.toBe(key);
		expect(accountKey('https://api.plaspy.com/v2', 'ops@example.com')).not.toBe(key);
	});

	it('joins a base URL with a path prefix and trailing slashes', () => {
		expect(joinUrl('https://host/tracking//', '/api/devices')).toBe('https://host/tracking/api/devices');
	});
});

describe('envelope', () => {
	it('returns a keyed payload', () => {
		expect(unwrapEnvelope(ENDPOINTS.listDevices, { success: true, error: null, devices: [{ id: 'd' }] })).toEqual([{ id: 'd' }]);
	});
	it('returns a flat group without the envelope fields, or the wrapped one', () => {
		const flat = { success: true, error: null, apiUsage: 3, apiDailyUsage: 9, id: 'g', name: 'G' };
		expect(unwrapEnvelope(ENDPOINTS.getGroup, flat)).toEqual({ id: 'g', name: 'G' });
		expect(unwrapEnvelope(ENDPOINTS.getGroup, { success: true, group: { id: 'g' } })).toEqual({ id: 'g' });
	});
	it.each([
		['nothing beside the envelope', { success: true, error: null }],
		['fields without an id, such as a huge padding', { success: true, error: null, padding: 'x'.repeat(1000) }],
		['a wrapped group without an id', { success: true, group: { name: 'G' } }],
	])('rejects a flat answer with %s instead of passing it off as the group', (_, body) => {
		expect(() => unwrapEnvelope(ENDPOINTS.getGroup, body)).toThrow('The tracking API answered success without the group (no "id" in the answer)');
	});
	it('treats success:false as a failure with the vendor text, whatever the status', () => {
		expect(() => unwrapEnvelope(ENDPOINTS.listDevices, { success: false, error: 'Nope.' })).toThrow('Nope.');
	});
	it.each([
		['a list', [1, 2]],
		['text', '<html>'],
		['no payload key', { success: true }],
		['a payload of the wrong shape', { success: true, devices: {} }],
	])('rejects %s', (_, body) => {
		expect(() => unwrapEnvelope(ENDPOINTS.listDevices, body)).toThrow(EnvelopeError);
	});
	it('accepts a null last location', () => {
		expect(unwrapEnvelope(ENDPOINTS.getLastLocation, { success: true, lastLocation: null })).toBeNull();
	});
});

describe('retry policy', () => {
	it('retries 429 and 503 for any request, other failures only for reads', () => {
		expect(isRetryable({ status: 429 }, false)).toBe(true);
		expect(isRetryable({ status: 503 }, false)).toBe(true);
		expect(isRetryable({ status: 500 }, false)).toBe(false);
		expect(isRetryable({ networkCode: 'ECONNRESET' }, false)).toBe(false);
		expect(isRetryable({ status: 500 }, true)).toBe(true);
		expect(isRetryable({ networkCode: 'ECONNRESET' }, true)).toBe(true);
		expect(isRetryable({ status: 404 }, true)).toBe(false);
	});
	it('honours Retry-After in seconds or as a date', () => {
		expect(parseRetryAfter('2', 0)).toBe(2000);
		expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
		expect(parseRetryAfter('soon', 0)).toBeUndefined();
		expect(retryDelayMs(3, 1500, () => 0.5)).toBe(1500);
		// A per-minute quota spent in a burst asks for most of a minute; an hour is not honoured.
		expect(retryDelayMs(0, 57_000, () => 0.5)).toBe(57_000);
		expect(retryDelayMs(0, 3_600_000, () => 0.5)).toBe(60_000);
	});
	it('backs off exponentially with jitter inside [ceiling/2, ceiling]', () => {
		expect(retryDelayMs(0, undefined, () => 0)).toBe(250);
		expect(retryDelayMs(0, undefined, () => 1)).toBe(500);
		expect(retryDelayMs(3, undefined, () => 1)).toBe(4000);
		expect(retryDelayMs(20, undefined, () => 1)).toBe(30_000);
	});
});

describe('failure descriptions', () => {
	const httpError = (status: number, data: unknown, headers: Record<string, string> = {}) =>
		Object.assign(new Error('wrapped'), { cause: Object.assign(new Error(`Request failed with status ${status}`), { response: { status, data, headers } }) });

	it('shows the vendor text with the status', () => {
		expect(describeFailure(httpError(404, { success: false, error: 'Device not found.' }))).toMatchObject({
			status: 404,
			message: 'The tracking API answered 404: Device not found.',
		});
	});
	it('names an HTML page for what it is, and reads Retry-After', () => {
		const failure = describeFailure(httpError(429, '<html>busy</html>', { 'retry-after': '3' }));
		expect(failure.message).toContain('HTML page');
		expect(failure.retryAfterMs).toBe(3000);
	});
	it('says when a status came without any text, and what the status usually means', () => {
		expect(describeFailure(httpError(431, ''))).toMatchObject({
			status: 431,
			message: 'The tracking API answered 431 without saying why',
			description: 'The request address or headers were too large for the service: check the ids sent.',
		});
	});
	it('reports network failures by code', () => {
		expect(describeFailure(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toMatchObject({
			networkCode: 'ECONNRESET',
			message: 'Could not get an answer from the tracking API: the connection was reset',
		});
	});
	it('stops at a chain of errors whose cause points back, with the facts of the links it has', () => {
		const outer = new Error('wrap') as Error & { cause?: unknown };
		const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', errorResponse: outer });
		outer.cause = inner;
		expect(describeFailure(outer)).toMatchObject({ networkCode: 'ECONNRESET' });
		const itself = new Error('loops') as Error & { cause?: unknown };
		itself.cause = itself;
		expect(describeFailure(itself).message).toBe('The request to the tracking API failed: loops');
	});
	it('tells users how to accept a self-signed certificate', () => {
		expect(describeFailure(Object.assign(new Error('x'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).description).toContain(
			'Allow Unauthorized Certificates',
		);
	});
	it('recognises a refused key after n8n rewraps it, which drops the error class', () => {
		const node = { id: 'n', name: 'Node', type: 't', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
		const rewrapped = new NodeApiError(node, new TokenRequestError('Invalid API key or username.') as unknown as JsonObject);
		expect(rewrapped.message).toBe('Invalid API key or username.');
		expect(describeFailure(rewrapped)).toMatchObject({
			tokenRefused: true,
			message: 'Authentication failed: Invalid API key or username.',
		});
	});

	it('passes the token refusal text through', () => {
		const failure = describeFailure(Object.assign(new Error('wrapped'), { cause: new TokenRequestError('Invalid API key or username.') }));
		expect(failure).toMatchObject({ status: 401, message: 'Authentication failed: Invalid API key or username.' });
	});
});


/** The most requests the pacer let run at once while `requests` each held a slot for one turn. */
async function peakConcurrency(pacer: RequestPacer, requests: number): Promise<number> {
	let running = 0;
	let peak = 0;
	await Promise.all(
		Array.from({ length: requests }, async () => {
			const release = await pacer.acquire();
			peak = Math.max(peak, ++running);
			await new Promise((resolve) => setImmediate(resolve));
			running--;
			release();
		}),
	);
	return peak;
}

/**
 * A clock whose timers run only when `runTimers` runs them: the due ones together, `lateMs(turn)`
 * after the earliest was due, as an event loop busy with other work gets to its timers late.
 */
function eventLoopClock(lateMs: (turn: number) => number = () => 0) {
	const timers: Array<{ at: number; wake: () => void }> = [];
	const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
	let sleeps = 0;
	const clock = {
		time: 0,
		now: () => clock.time,
		sleep: (ms: number) => {
			sleeps++;
			return new Promise<void>((wake) => timers.push({ at: clock.time + ms, wake }));
		},
		sleeps: () => sleeps,
		settle,
		async runTimers(until: () => boolean = () => false) {
			await settle();
			for (let turn = 0; !until() && timers.length > 0; turn++) {
				timers.sort((a, b) => a.at - b.at);
				clock.time = Math.max(clock.time, timers[0].at) + lateMs(turn);
				for (const timer of timers.splice(0, timers.filter((t) => t.at <= clock.time).length)) timer.wake();
				await settle();
			}
		},
	};
	return clock;
}

type EventLoopClock = ReturnType<typeof eventLoopClock>;

/** A pacer on an account whose rate was learned from a 429: 200 answers in the second before it. */
async function pacerAfterA429(clock: EventLoopClock, maxConcurrency = 8) {
	const quota = new AccountQuota(clock);
	const earlier = new RequestPacer({ maxConcurrency: 1 }, clock, quota);
	for (let i = 0; i < 200; i++) {
		clock.time += 5;
		const release = earlier.acquire();
		await clock.settle();
		(await release)();
		earlier.succeeded();
	}
	earlier.throttled(1000, true); // one send every 1000 / (200 × 0.98) ms from 1 s on
	clock.time += 1000;
	return { quota, pacer: new RequestPacer({ maxConcurrency }, clock, quota), spacing: 1000 / (200 * 0.98) };
}

/**
 * A request through `waiting` that waits for room from 10 ms on, and one through `later` that asks at
 * 60 002 ms, when the window's answers (at 0) have left it but the waiting one's timer has not run,
 * as on a busy event loop: when each went.
 */
async function waitingThenLater(clock: EventLoopClock, waiting: RequestPacer, later: RequestPacer): Promise<string[]> {
	const sent: string[] = [];
	const send = async (pacer: RequestPacer, name: string) => {
		(await pacer.acquire())();
		sent.push(`${name} at ${clock.time}`);
	};
	clock.time = 10;
	const first = send(waiting, 'waiting');
	await clock.settle();
	clock.time = 60_002;
	const second = send(later, 'later');
	await clock.settle();
	await clock.runTimers(() => sent.length === 2);
	await Promise.all([first, second]);
	return sent;
}

/** The most of `times` within any `windowMs`. */
function mostWithin(times: number[], windowMs: number): number {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let last = 0, first = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}

/** `items` requests through `pacer`, `concurrency` at once, each answered 20 ms after it went. */
async function sendThrough(clock: EventLoopClock, pacer: RequestPacer, items: number, concurrency: number): Promise<number[]> {
	const sentAt: number[] = [];
	let next = 0;
	const worker = async () => {
		while (next < items) {
			next++;
			const release = await pacer.acquire();
			sentAt.push(clock.time);
			await clock.sleep(20);
			release();
			pacer.succeeded();
		}
	};
	const all = Promise.all(Array.from({ length: concurrency }, worker));
	await clock.runTimers(() => sentAt.length === items && next === items);
	await clock.runTimers();
	await all;
	return sentAt;
}

/**
 * A pacer on a fake clock; `count` requests through it answered 5 ms apart (200/s); and when three
 * sends after now went, from now.
 */
function pacerAnsweredEvery5ms() {
	const clock = fakeClock();
	const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
	const succeedEvery5ms = async (count: number) => {
		for (let i = 0; i < count; i++) {
			clock.time += 5;
			(await pacer.acquire())();
			pacer.succeeded();
		}
	};
	const threeSendsFromNow = async () => {
		const from = clock.time;
		const sentAt: number[] = [];
		for (let i = 0; i < 3; i++) {
			(await pacer.acquire())();
			sentAt.push(Math.round(clock.time - from));
		}
		return sentAt;
	};
	return { clock, pacer, succeedEvery5ms, threeSendsFromNow };
}

/** A service's quota: when a request arriving at `at` is refused, its Retry-After in ms; else undefined. */
type QuotaShape = (at: number) => number | undefined;

/** `requests` per calendar window (windows begin at multiples of `windowMs`), Retry-After the rest of it rounded up. */
function fixedWindows(requests: number, windowMs: number): QuotaShape {
	let windowStart = -Infinity;
	let counted = 0;
	return (at) => {
		const start = at - (at % windowMs);
		if (start !== windowStart) [windowStart, counted] = [start, 0];
		if (counted < requests) {
			counted++;
			return undefined;
		}
		return Math.max(1, Math.ceil((start + windowMs - at) / 1000)) * 1000;
	};
}

/** `requests` in any `windowMs`, Retry-After until the oldest counted leaves it, rounded up. */
function slidingWindow(requests: number, windowMs: number): QuotaShape {
	const admitted: number[] = [];
	return (at) => {
		while (admitted.length > 0 && admitted[0] <= at - windowMs) admitted.shift();
		if (admitted.length < requests) {
			admitted.push(at);
			return undefined;
		}
		return Math.max(1, Math.ceil((admitted[admitted.length - requests] + windowMs - at) / 1000)) * 1000;
	};
}

/**
 * Reads through `pacer`, `concurrency` at once, while `more()` says so, as the client sends them:
 * each arrives 10 ms (plus up to `arrivalJitterMs`) after the pacer lets it go, is answered 20 ms
 * later, and is sent again after a 429 (the pacer told of it). Answers accepted are `done`.
 */
function readersUnderQuota(
	clock: EventLoopClock & { calendarNow(): number },
	shape: QuotaShape,
	pacer: RequestPacer,
	concurrency: number,
	more: () => boolean,
	arrivalJitterMs = 0,
) {
	const calendarOffsetMs = clock.calendarNow() - clock.time;
	// The same jitter at every run: a linear congruential sequence.
	let seed = 12345 + Math.round(clock.time);
	const jitter = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const tally = { done: [] as number[], refused: 0 };
	const reader = async () => {
		while (more()) {
			for (;;) {
				const release = await pacer.acquire();
				await clock.sleep(10 + jitter() * arrivalJitterMs);
				const retryAfterMs = shape(clock.time + calendarOffsetMs);
				await clock.sleep(20);
				release();
				if (retryAfterMs === undefined) break;
				tally.refused++;
				pacer.throttled(retryAfterMs, true);
			}
			tally.done.push(clock.time);
			pacer.succeeded();
		}
	};
	return { tally, all: Promise.all(Array.from({ length: concurrency }, reader)) };
}

/** `items` reads through a new pacer from `startAt` (see readersUnderQuota): the wall time and the 429s. */
async function readsUnderQuota(
	shape: QuotaShape,
	startAt: number,
	concurrency: number,
	items: number,
	{ calendarOffsetMs = 0, arrivalJitterMs = 0 } = {},
) {
	const clock = Object.assign(eventLoopClock(), { calendarNow: () => clock.time + calendarOffsetMs });
	clock.time = startAt;
	const pacer = new RequestPacer({ maxConcurrency: concurrency }, clock);
	let next = 0;
	const { tally, all } = readersUnderQuota(clock, shape, pacer, concurrency, () => next++ < items, arrivalJitterMs);
	await clock.runTimers(() => tally.done.length === items);
	await all;
	return { wallMs: clock.time - startAt, refused: tally.refused };
}

/**
 * One workflow reads with 4 under way (about 133/s) from 0; at `joinAt` a second on the same account
 * joins with 8 (the account's 8 slots: about 266/s), both until `until`: when the reads were answered.
 */
async function twoWorkflowsUnderQuota(shape: QuotaShape, joinAt: number, until: number): Promise<number[]> {
	const clock = Object.assign(eventLoopClock(), { calendarNow: () => clock.time });
	const quota = new AccountQuota(clock);
	const first = readersUnderQuota(clock, shape, new RequestPacer({ maxConcurrency: 4 }, clock, quota), 4, () => clock.time < until);
	await clock.runTimers(() => clock.time >= joinAt);
	const second = readersUnderQuota(clock, shape, new RequestPacer({ maxConcurrency: 8 }, clock, quota), 8, () => clock.time < until);
	await clock.runTimers(() => clock.time >= until);
	await clock.runTimers();
	await Promise.all([first.all, second.all]);
	return [...first.tally.done, ...second.tally.done];
}

describe('RequestPacer', () => {
	it('never runs more than the allowed requests at once', async () => {
		const pacer = new RequestPacer({ maxConcurrency: 3 });
		expect(await peakConcurrency(pacer, 20)).toBe(3);
	});

	it('halves concurrency after a 429 and grows it back with successes', async () => {
		const pacer = new RequestPacer({ maxConcurrency: 8 });
		pacer.throttled(0, true);
		expect(await peakConcurrency(pacer, 16)).toBe(4);
		for (let i = 0; i < 20 * 4; i++) pacer.succeeded();
		const releases = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
		releases.forEach((release) => release());
	});

	it('halves concurrency once per overload: 429s that arrive during its pause answer requests sent before it', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
		// Three requests of one burst answered 429: one overload.
		for (let i = 0; i < 3; i++) pacer.throttled(1000, true);
		expect(await peakConcurrency(pacer, 16)).toBe(4);
		expect(clock.time).toBe(1000);
		// A 429 after the pause is a new overload.
		pacer.throttled(1000, true);
		expect(await peakConcurrency(pacer, 16)).toBe(2);
	});

	it('caps requests per 60 s window', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 10, requestsPerMinute: 3 }, clock);
		const sentAt: number[] = [];
		for (let i = 0; i < 7; i++) {
			(await pacer.acquire())();
			sentAt.push(clock.time);
		}
		expect(sentAt).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
	});

	it('counts a request in the 60 s window until 60 s after its answer, as the service sees it arrive in between', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 10, requestsPerMinute: 2 }, clock);
		const sentAt: number[] = [];
		for (let i = 0; i < 4; i++) {
			const release = await pacer.acquire();
			sentAt.push(clock.time);
			clock.time += 500; // each answer takes 500 ms
			release();
		}
		// The third goes 60 s after the first answer (500), not 60 s after the first send (0): the
		// first may have arrived at 499 and the third at 60 000 otherwise, three in one window.
		expect(sentAt).toEqual([0, 500, 60_500, 61_000]);
	});

	it('under a cap, lets a request waiting for room go before one that asked after it', async () => {
		const clock = eventLoopClock();
		const quota = new AccountQuota(clock);
		const capped = () => new RequestPacer({ maxConcurrency: 4, requestsPerMinute: 1 }, clock, quota);
		(await capped().acquire())();
		// Not the later one at 60 002, having taken the room as it asked, and the waiting one a minute later.
		expect(await waitingThenLater(clock, capped(), capped())).toEqual(['waiting at 60002', 'later at 120002']);
	});

	it('under a lower cap than a request waiting for room, a later request goes first when both fit', async () => {
		const clock = eventLoopClock();
		const quota = new AccountQuota(clock);
		const cappedAt = (requestsPerMinute: number) => new RequestPacer({ maxConcurrency: 4, requestsPerMinute }, clock, quota);
		const answeredAtZero = await Promise.all([cappedAt(2).acquire(), cappedAt(2).acquire()]);
		answeredAtZero.forEach((release) => release());
		// One in the window leaves room under cap 2 for the waiting one: neither waits another minute.
		expect(await waitingThenLater(clock, cappedAt(2), cappedAt(1))).toEqual(['later at 60002', 'waiting at 60002']);
	});

	it("keeps an account's window while a request waits in it for room, however late its timer", async () => {
		const clock = eventLoopClock();
		clock.time = 1_000_000;
		const cappedRun = () => new RequestPacer({ maxConcurrency: 1, requestsPerMinute: 1 }, clock, quotaForAccount('waiting for room', clock));
		const run = cappedRun();
		(await run.acquire())(); // answered at 1 000 000
		const sentAt: number[] = [];
		const send = async (pacer: RequestPacer) => {
			(await pacer.acquire())();
			sentAt.push(clock.time);
		};
		clock.time += 10;
		const waiting = send(run);
		await clock.settle();
		// The answer left the window, the waiting request's timer has not run, and another run starts:
		// taken for idle, the account's window was dropped, and both went at once under a cap of 1.
		clock.time = 1_060_001;
		const other = send(cappedRun());
		await clock.runTimers(() => sentAt.length === 2);
		await Promise.all([waiting, other]);
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(60_000);
	});

	it('under a cap below the concurrency, waits for an answer when every counted request is under way', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 5, requestsPerMinute: 1 }, clock);
		const first = await pacer.acquire();
		let secondSent = false;
		const second = pacer.acquire().then((release) => {
			secondSent = true;
			return release;
		});
		await new Promise((resolve) => setImmediate(resolve));
		expect(secondSent).toBe(false);
		clock.time = 1000;
		first();
		(await second)();
		expect(clock.time).toBe(61_000);
	});

	it('pauses every request after a 429 until its Retry-After has passed', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 4 }, clock);
		pacer.throttled(2000, true);
		(await pacer.acquire())();
		expect(clock.time).toBe(2000);
	});

	it('after a 429, spaces sends just under the rate the service accepted over the Retry-After span', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
		// 190 answers accepted within the last second (one every 5 ms), then a 429 with Retry-After 1 s.
		for (let i = 0; i < 190; i++) {
			clock.time += 5;
			(await pacer.acquire())();
			pacer.succeeded();
		}
		pacer.throttled(1000, true);
		const pausedFrom = clock.time;
		const sentAt: number[] = [];
		for (let i = 0; i < 4; i++) {
			(await pacer.acquire())();
			sentAt.push(clock.time - pausedFrom);
		}
		const spacing = 1000 / (190 * 0.98);
		expect(sentAt[0]).toBe(1000);
		expect(sentAt[3] - sentAt[0]).toBeCloseTo(3 * spacing, 6);
	});

	it('holds a request waiting for its spaced turn when a 429 pauses the account meanwhile', async () => {
		// Sleeps end only when the test runs the timers, so a 429 can land during one.
		const clock = eventLoopClock();
		const pacer = new RequestPacer({ maxConcurrency: 4 }, clock);
		for (let i = 0; i < 20; i++) {
			clock.time += 100;
			(await pacer.acquire())();
			pacer.succeeded();
		}
		pacer.throttled(3000, true); // learns one request every ~150 ms, and pauses 3 s
		clock.time += 3000;
		const sentAt: number[] = [];
		const send = async () => {
			const release = await pacer.acquire();
			sentAt.push(clock.time);
			release();
		};
		const requests = [send(), send(), send()];
		await clock.settle();
		// The first went at once; the others wait for their spaced turns when a 429 pauses the account 5 s.
		expect(sentAt).toEqual([clock.time]);
		clock.time += 10;
		pacer.throttled(5000, true);
		const pausedUntil = clock.time + 5000;
		await clock.runTimers();
		await Promise.all(requests);
		expect(sentAt).toHaveLength(3);
		for (const at of sentAt.slice(1)) expect(at).toBeGreaterThanOrEqual(pausedUntil);
	});

	it('sends requests that a stalled event loop made late one spacing apart, not in a burst over the quota', async () => {
		const clock = eventLoopClock();
		const { pacer, spacing } = await pacerAfterA429(clock);
		const sentAt: number[] = [];
		const requests = Array.from({ length: 6 }, async () => {
			const release = await pacer.acquire();
			sentAt.push(clock.time);
			release();
		});
		await clock.settle();
		expect(sentAt).toHaveLength(1);
		clock.time += 200; // the event loop stalls 200 ms: every waiting request is overdue
		await clock.runTimers();
		await Promise.all(requests);
		// Booked ahead, the five late ones all went at once.
		const late = sentAt.slice(1);
		expect(late).toHaveLength(5);
		expect(late[4] - late[0]).toBeCloseTo(4 * spacing, 6);
	});

	it.each([
		['every timer runs 8 ms late', () => 8],
		['one timer turn in four runs 10 ms late', (turn: number) => (turn % 4 === 0 ? 10 : 0)],
	])('keeps the learned rate under the quota when %s', async (_, lateMs) => {
		const clock = eventLoopClock(lateMs);
		const { pacer, spacing } = await pacerAfterA429(clock, 20);
		const sentAt = await sendThrough(clock, pacer, 2000, 20);
		const rate = ((sentAt.length - 1) / (sentAt[sentAt.length - 1] - sentAt[0])) * 1000;
		// Turns missed by more than 5 ms restarted the pace: 196/s became 76/s and 118/s.
		expect(rate).toBeGreaterThanOrEqual((1000 / spacing) * 0.9);
		expect(mostWithin(sentAt, 1000)).toBeLessThanOrEqual(200);
	});

	it('gives spaced turns in the order requests asked, with one timer for all of them', async () => {
		const clock = eventLoopClock();
		const { quota, pacer } = await pacerAfterA429(clock, 20);
		const single = new RequestPacer({ maxConcurrency: 8 }, clock, quota);
		const order: string[] = [];
		const send = async (run: RequestPacer, name: string) => {
			(await run.acquire())();
			order.push(name);
		};
		const sleepsBefore = clock.sleeps();
		const batch = Array.from({ length: 19 }, (_, index) => send(pacer, `batch ${index}`));
		await clock.settle();
		const alone = send(single, 'single');
		await clock.settle();
		await clock.runTimers();
		await Promise.all([...batch, alone]);
		// The single read asked after the batch's first 19 and goes 20th, not whenever its own timer won.
		expect(order.indexOf('single')).toBe(19);
		// Each of them waking at every turn: 18 timers per send with 20 waiting.
		expect(clock.sleeps() - sleepsBefore).toBeLessThanOrEqual(2 * order.length);
	});

	it.each([
		// A per-minute quota spent in 3 s, then 57 s to wait: 600 per 60 s (less Retry-After's rounding), not per 57 s.
		['a per-minute quota spent in a burst', 600, 5, 57_000, 59_000],
		// A one-second window spent in 0.3 s says "1" (rounded up from 0.7): the window is that second.
		['a one-second window spent in a burst', 200, 1.5, 1_000, 1_000],
	])('after %s, paces over the burst and the wait together', async (_, accepted, everyMs, retryAfterMs, windowMs) => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
		for (let i = 0; i < accepted; i++) {
			clock.time += everyMs;
			(await pacer.acquire())();
			pacer.succeeded();
		}
		pacer.throttled(retryAfterMs, true);
		const sentAt: number[] = [];
		for (let i = 0; i < 3; i++) {
			(await pacer.acquire())();
			sentAt.push(clock.time);
		}
		expect(sentAt[2] - sentAt[0]).toBeCloseTo((2 * windowMs) / (accepted * 0.98), 0);
	});

	it('learns no quota from a span it spent held back after an outage: it halves instead of pinning that rate', async () => {
		const { clock, pacer, succeedEvery5ms, threeSendsFromNow } = pacerAnsweredEvery5ms();
		await succeedEvery5ms(190);
		// A 503: a pause and fewer requests at once, so the next second sees fewer answers.
		pacer.throttled(100, false);
		clock.time += 100;
		await succeedEvery5ms(20);
		pacer.throttled(1000, true);
		expect(await threeSendsFromNow()).toEqual([1000, 1000, 1000]);
	});

	it('learns no quota from a few answers after a full second\'s pause: another process on the account filled the window, so it halves', async () => {
		const { clock, pacer, succeedEvery5ms, threeSendsFromNow } = pacerAnsweredEvery5ms();
		await succeedEvery5ms(190);
		pacer.throttled(1000, true); // about 200/s learned
		clock.time += 1000;
		// A queue-mode worker with its own pacer sent meanwhile: 12 answers, then a 429.
		await succeedEvery5ms(12);
		pacer.throttled(1000, true);
		const sentAt = await threeSendsFromNow();
		// Learned from the 12, sends went 85 ms apart (12/s) for 5 minutes.
		expect(sentAt[2] - sentAt[0]).toBeLessThan(20);
		expect(pacer.allowed).toBe(4);
	});

	it('measures the rate afresh at each 429 and drops it five minutes after the last one', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
		const acceptEvery = async (everyMs: number, count: number) => {
			for (let i = 0; i < count; i++) {
				clock.time += everyMs;
				(await pacer.acquire())();
				pacer.succeeded();
			}
		};
		const spacing = async () => {
			const sentAt: number[] = [];
			for (let i = 0; i < 3; i++) {
				(await pacer.acquire())();
				sentAt.push(clock.time);
			}
			return (sentAt[2] - sentAt[0]) / 2;
		};
		await acceptEvery(5, 200);
		pacer.throttled(1000, true);
		expect(await spacing()).toBeCloseTo(1000 / (200 * 0.98), 6);
		// A second 429 (another client spent part of the quota) measures again: 50 accepted in the
		// last second. Each 429 used to cut the old rate by another 1.25× instead, however many came.
		clock.time += 5_000;
		await acceptEvery(20, 50);
		pacer.throttled(1000, true);
		expect(await spacing()).toBeCloseTo(1000 / (50 * 0.98), 6);
		// Five minutes without a 429, on an account never idle: full speed again.
		for (let minute = 0; minute < 5; minute++) await acceptEvery(1000, 60);
		expect(await spacing()).toBe(0);
	});

	it('treats a 503 as an outage, not a quota: fewer requests at once, no learned rate', async () => {
		const clock = fakeClock();
		const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
		for (let i = 0; i < 50; i++) pacer.succeeded();
		pacer.throttled(100, false);
		const sentAt: number[] = [];
		for (let i = 0; i < 3; i++) {
			(await pacer.acquire())();
			sentAt.push(clock.time);
		}
		expect(sentAt).toEqual([100, 100, 100]);
	});

	describe('under a quota of 200/s, sliding or counted per calendar second (bench P2q)', () => {
		// 2,000 reads: a floor of 10 s. The target: 1.1× that, plus the one Retry-After pause (1 s) a
		// client must take to learn the quota.
		const items = 2000;
		const targetMs = 1.1 * 10_000 + 1000;
		// Where in a calendar second the run starts decides how much of the second before the span of
		// the first 429 holds.
		const startsAt = [0, 150, 300, 450, 600, 750, 900];

		it.each(startsAt)('8 under way against calendar seconds, starting at %i ms: one or two overloads, within the target', async (startAt) => {
			const { wallMs, refused } = await readsUnderQuota(fixedWindows(200, 1000), startAt, 8, items);
			// The rate learned over the last second, with the second before's tail in it (264 of 200),
			// drew a 429 every other second: 53 answers of 429, 16.2 s.
			expect(refused).toBeLessThanOrEqual(2 * 8);
			expect(wallMs).toBeLessThanOrEqual(targetMs);
		});

		it.each(startsAt)('20 under way against calendar seconds, starting at %i ms: one or two overloads, within the target', async (startAt) => {
			// From 750 ms the first 429's span began before the first answer, so it held the second
			// before's tail (360 of 200), and each later 429 came within a second of the pause before:
			// nothing was learned again: a 429 every 2 s for the whole run (75 answers of 429 here; in
			// 12,000 reads 405, 71.6 s instead of 61.6 s).
			const { wallMs, refused } = await readsUnderQuota(fixedWindows(200, 1000), startAt, 20, items);
			expect(refused).toBeLessThanOrEqual(2 * 20);
			expect(wallMs).toBeLessThanOrEqual(targetMs);
		});

		it('8 under way against calendar seconds, answered at its own pace across a whole second: one overload only', async () => {
			for (const startAt of [300, 450, 600]) {
				const { wallMs, refused } = await readsUnderQuota(fixedWindows(200, 1000), startAt, 8, items);
				expect(refused).toBe(8);
				expect(wallMs).toBeLessThanOrEqual(1.1 * 10_000 + 500);
			}
		});

		it("finds where the service's calendar second begins on the clock's calendar, not on its own time", async () => {
			// The pacer's time counts from the process's start; the service's seconds from the epoch.
			const { refused } = await readsUnderQuota(fixedWindows(200, 1000), 0, 8, items, { calendarOffsetMs: 1_764_000_000_300 });
			expect(refused).toBe(8);
		});

		it.each([8, 20])('%i under way against a sliding window, from any start: one overload, as before', async (concurrency) => {
			for (const startAt of startsAt) {
				const { wallMs, refused } = await readsUnderQuota(slidingWindow(200, 1000), startAt, concurrency, items);
				expect(refused).toBe(concurrency);
				expect(wallMs).toBeLessThanOrEqual(1.1 * 10_000);
			}
		});

		it('20 under way against a sliding window, arriving up to 30 ms apart from their turns: a second 429 under the learned pace does not cut it to a calendar second', async () => {
			// The jitter bunches arrivals over the quota once: 3 more answers of 429, with answers in
			// the pause. Taking the count since the calendar second began made the rest of the run go
			// at about 140/s: 15.2 s; the span's count, as before the calendar rule, 13.8 s.
			const { wallMs, refused } = await readsUnderQuota(slidingWindow(200, 1000), 0, 20, items, { arrivalJitterMs: 30 });
			expect(refused).toBe(23);
			expect(wallMs).toBeLessThan(14_000);
		});

		it('one workflow reading for 11 minutes against a sliding window, 8 under way: the learned rate renewed after its 5 minutes keeps the quota', async () => {
			// At the renewal the run goes at full speed into a window full of the learned pace; the first
			// 429's count since the calendar second began was taken as a calendar quota: 171/s over the
			// run from 900 ms into a second (195/s on main).
			const clock = Object.assign(eventLoopClock(), { calendarNow: () => clock.time });
			clock.time = 900;
			const until = 900 + 700_000;
			const pacer = new RequestPacer({ maxConcurrency: 8 }, clock);
			const { tally, all } = readersUnderQuota(clock, slidingWindow(200, 1000), pacer, 8, () => clock.time < until);
			await clock.runTimers(() => clock.time >= until);
			await clock.runTimers();
			await all;
			expect(Math.round(tally.done.filter((at) => at <= until).length / 700)).toBe(195);
		});

		it('a second workflow joining the account of a sliding window, at any point of a calendar second: the pace learned from its 429 keeps the quota within 20 s', async () => {
			// At the first 429 the count since the calendar second began looks like a calendar quota
			// (144 of 200 when the second workflow joins 100 ms into a second); taken as one, it held
			// the account at 102-180/s for the learned rate's 5 minutes.
			for (const phase of [0, 100, 250, 400, 900]) {
				const joinAt = 5000 + phase;
				const answeredAt = await twoWorkflowsUnderQuota(slidingWindow(200, 1000), joinAt, joinAt + 60_000);
				const lastForty = answeredAt.filter((at) => at > joinAt + 20_000 && at <= joinAt + 60_000).length;
				expect({ phase, perSecond: Math.round(lastForty / 40) }).toEqual({ phase, perSecond: 196 });
			}
		});
	});
});
