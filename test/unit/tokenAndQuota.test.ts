import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

import type { IHttpRequestOptions, INode } from 'n8n-workflow';

import { SatelliteTrackingApi } from '../../credentials/SatelliteTrackingApi.credentials';

import { usageHints } from '../../nodes/SatelliteTracking/actions/usageHint';
import { readRequestSettings } from '../../nodes/shared/requestSettings';
import { describeNetworkFailure, displayUrl } from '../../nodes/shared/transport/failure';
import { AccountQuota, quotaForAccount, RequestPacer, systemClock, trackedAccounts } from '../../nodes/shared/transport/pacer';
import { REDACTED, redact, redactTexts, suppliedSecrets } from '../../nodes/shared/transport/failure';
import { credentialFingerprint, localExpiry } from '../../nodes/shared/transport/token';
import { fakeClock, fakeDateFrom } from '../support/clock';

const VENDOR_TOKEN = join(__dirname, '..', '..', '..', 'shared', 'vendor-examples', 'authentication.successful-response-example.json');

describe('token lifetime from the answer', () => {
	const received = Date.parse('2026-01-01T12:00:00Z');

	it('measures expires against the Date header, so a server clock an hour behind changes nothing', () => {
		const expiry = localExpiry('2026-01-01T11:01:00Z', 'Thu, 01 Jan 2026 11:00:00 GMT', received);
		// 60 s lifetime, less the Date header's second, less a tenth of it as margin.
		expect(Date.parse(expiry) - received).toBe(59_000 - 5_900);
	});

	it('renews at most 30 s early for long lifetimes', () => {
		const expiry = localExpiry('2026-01-01T13:00:01Z', 'Thu, 01 Jan 2026 12:00:00 GMT', received);
		expect(Date.parse(expiry) - received).toBe(3_600_000 - 30_000);
	});

	it.each(['2026-01-01T13:00:01', '2026-01-01 13:00:01'])(
		'reads an expires without a zone (%s) as UTC, as the spec says it is, whatever the host zone',
		(expires) => {
			// Read in the host's zone, this was no lifetime at all in Berlin (trusted until refused) and
			// six hours in New York: the token was sent for five hours after it had expired.
			const expiry = localExpiry(expires, 'Thu, 01 Jan 2026 12:00:00 GMT', received);
			expect(Date.parse(expiry) - received).toBe(3_600_000 - 30_000);
		},
	);

	it.each([
		['no Date header', '2026-01-01T13:00:00Z', undefined],
		['no expires', undefined, 'Thu, 01 Jan 2026 12:00:00 GMT'],
		['an unreadable expires', 'soon', 'Thu, 01 Jan 2026 12:00:00 GMT'],
		['an expires before Date', '2025-12-31T23:59:59Z', 'Thu, 01 Jan 2026 12:00:00 GMT'],
	])('trusts the token until refused with %s', (_, expires, date) => {
		expect(localExpiry(expires, date, received)).toBe('');
	});

	(existsSync(VENDOR_TOKEN) ? it : it.skip)("trusts the vendor's own example token (its expires is long past) until refused", () => {
		const answer = JSON.parse(readFileSync(VENDOR_TOKEN, 'utf8')) as { expires: string };
		expect(localExpiry(answer.expires, new Date().toUTCString(), Date.now())).toBe('');
	});

	it('fingerprints the values a token was fetched with, never holding the key', () => {
		const values = { baseUrl: 'https://api.plaspy.com', userName: 'a@b.c', apiKey: 'secret-key-1' };
		const fingerprint = credentialFingerprint(values);
		expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
		expect(fingerprint).not.toContain('secret');
		expect(credentialFingerprint({ ...values, apiKey: 'secret-key-2' })).not.toBe(fingerprint);
		expect(credentialFingerprint({ ...values, baseUrl: 'https://other.example' })).not.toBe(fingerprint);
		expect(credentialFingerprint({ ...values, token: 'ignored' })).toBe(fingerprint);
		// Asked again after other values, the first values have their first fingerprint.
		expect(credentialFingerprint({ ...values })).toBe(fingerprint);
		expect(credentialFingerprint({ ...values, userName: 'x@b.c' })).not.toBe(fingerprint);
	});
});

describe('redaction', () => {
	it('replaces known secrets and any quoted bearer token', () => {
		const text = 'Bad request. Authorization: Bearer eyJ.abc.def; body: {"apiKey":"sandbox-demo-key"}';
		expect(redact(text, ['sandbox-demo-key'])).toBe('Bad request. Authorization: Bearer [redacted]; body: {"apiKey":"[redacted]"}');
	});

	it('leaves short values alone rather than blank out ordinary words', () => {
		expect(redact('not found', ['not'])).toBe('not found');
	});

	it('takes a secret out as JSON quotes it, once or twice, and a short one where it stands as a JSON string', () => {
		const password = 'Quoted"Horse\\Battery-51';
		const body = JSON.stringify({ password, note: 'Qx7 is short' });
		const echoed = `Bad request: ${JSON.stringify({ body })}; once: ${body}`;
		expect(redact(echoed, [password, 'Qx7'])).toBe(
			'Bad request: {"body":"{\\"password\\":\\"[redacted]\\",\\"note\\":\\"Qx7 is short\\"}"}; once: {"password":"[redacted]","note":"Qx7 is short"}',
		);
		expect(redact('{"value":"Qx7"} and {\\"value\\":\\"Qx7\\"}', ['Qx7'])).toBe('{"value":"[redacted]"} and {\\"value\\":\\"[redacted]\\"}');
	});

	it('takes a secret out as other encoders write it: \\u escapes (.NET, Python) in either case, percent-encoding', () => {
		const password = "Pfl\u00e4ume+&'Tor";
		expect(redact('{"password":"Pfl\\u00E4ume\\u002B\\u0026\\u0027Tor"}', [password])).toBe('{"password":"[redacted]"}');
		expect(redact('{"password":"Pfl\\u00e4ume+&\\u0027Tor"}', [password])).toBe('{"password":"[redacted]"}');
		expect(redact('password=pass%2Bword&x=1', ['pass+word'])).toBe('password=[redacted]&x=1');
		expect(redact('tab:"a\\tb"', ['a\tb'])).toBe('tab:"[redacted]"');
		expect(redact('"Key\\uD83D\\uDE00Lock9" "Key\u{1F600}Lock9"', ['Key\u{1F600}Lock9'])).toBe('"[redacted]" "[redacted]"');
	});

	it('takes a secret out percent-encoded as UTF-8, and with spaces written as + (forms, query strings)', () => {
		const password = 'Grüße an Oma 🙂';
		const form = new URLSearchParams({ password, name: 'A' }).toString();
		expect(redact(`Bad request: ${form}`, [password])).toBe('Bad request: password=[redacted]&name=A');
		expect(redact(`Bad request: ${encodeURIComponent(password).replace(/%[0-9A-F]{2}/g, (byte) => byte.toLowerCase())}`, [password])).toBe('Bad request: [redacted]');
	});

	it('takes a short secret out wherever it stands quoted or as a form value, never out of a word', () => {
		expect(redact("The password 'Ab1!x' is too short", ['Ab1!x'])).toBe("The password '[redacted]' is too short");
		expect(redact('password=Ab1!x&name=A; again: password=Ab1!x', ['Ab1!x'])).toBe('password=[redacted]&name=A; again: password=[redacted]');
		expect(redact('The password Ab1!xy and Ab1!x2', ['Ab1!x'])).toBe('The password Ab1!xy and Ab1!x2');
	});

	// A secret can hold backslashes, and a service can answer anything: the search must stay linear.
	// Run under a watchdog, so that a search that backtracks without end fails the test instead of hanging it.
	it.each([
		['backslashes', '\\'.repeat(12) + '!', '\\'.repeat(3000) + 'y'],
		['backslashes between signs', '\\!'.repeat(12) + '?', '\\\\\\\\!'.repeat(1000) + 'y'],
		['a short one', '\\\\\\!', `"${'\\'.repeat(3000)}y"`],
	])('takes no time to speak of on any answer, whatever the secret (%s)', (_name, secret, answer) => {
		const redacted = runInNewContext('redact(answer, [secret])', { redact, answer, secret }, { timeout: 2000 }) as string;
		expect(redacted).toBe(answer);
		expect(redact(JSON.stringify(JSON.stringify({ secret })), [secret])).toBe(JSON.stringify(JSON.stringify({ secret: REDACTED })));
	});

	it('finds the passwords a request body sets, as fields or by JSON Patch', () => {
		expect(suppliedSecrets({ name: 'A', password: 'p-1', tags: { password: 'p-2' } })).toEqual(['p-1', 'p-2']);
		expect(suppliedSecrets([{ op: 'replace', path: '/password', value: 'p-3' }, { op: 'replace', path: '/name', value: 'B' }])).toEqual(['p-3']);
		// ASP.NET reads property names and JSON Patch paths in any case.
		expect(suppliedSecrets([{ op: 'add', path: '/PASSWORD', value: 'p-4' }, { Password: 'p-5' }])).toEqual(['p-4', 'p-5']);
		expect(suppliedSecrets({ password: '' })).toEqual([]);
		expect(suppliedSecrets(undefined)).toEqual([]);
	});

	it('takes secrets out of every text of plain data, a short one that is a whole text too', () => {
		const node = { name: 'Create', parameters: { additionalFields: { password: 'Qx7' }, jsonPatch: '[{"path":"/password","value":"long-secret"}]', limit: 5 } };
		expect(redactTexts(node, ['Qx7', 'long-secret'])).toEqual({
			name: 'Create',
			parameters: { additionalFields: { password: '[redacted]' }, jsonPatch: '[{"path":"/password","value":"[redacted]"}]', limit: 5 },
		});
	});
});

describe('network failures', () => {
	it('say where the request went, without user info or query', () => {
		expect(displayUrl('https://user:pw@host.example:8443/base/api/x?apiKey=1#f')).toBe('https://host.example:8443/base/api/x');
		const failure = describeNetworkFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), 'http://127.0.0.1:9/api/Auth/Token');
		expect(failure).toEqual({
			networkCode: 'ECONNREFUSED',
			message: 'Could not get an answer from the tracking API at http://127.0.0.1:9/api/Auth/Token: the connection was refused',
			description: expect.stringContaining('Check the Base URL'),
		});
	});

	it('keep the address first said when n8n rewraps the error', () => {
		const first = describeNetworkFailure(new Error('connect ECONNREFUSED'), 'http://a.example/api/Auth/Token')!;
		const rewrapped = { message: 'wrapper', cause: new Error(first.message) };
		expect(describeNetworkFailure(rewrapped, 'http://a.example/api/devices')?.message).toBe(first.message);
	});
});

describe('readRequestSettings', () => {
	const node = { name: 'Node' } as INode;

	it('fills defaults and reads numbers given as text', () => {
		expect(readRequestSettings(node, {})).toEqual({
			maxConcurrency: 8,
			requestsPerMinute: 0,
			maxRetries: 5,
			timeoutMs: 30_000,
			dailyRequestLimit: undefined,
			dailyLimitWarnShare: 0.8,
		});
		expect(readRequestSettings(node, { maxConcurrency: '3', timeoutSeconds: '2.5', dailyRequestLimit: 1000 })).toMatchObject({
			maxConcurrency: 3,
			timeoutMs: 2_500,
			dailyRequestLimit: 1000,
		});
	});

	it.each([
		[{ maxConcurrency: 0 }, 'Invalid "Max Concurrent Requests": Max Concurrent Requests must be between 1 and 50 (got 0)'],
		[{ maxConcurrency: 2.5 }, 'Invalid "Max Concurrent Requests": Max Concurrent Requests must be a whole number (got 2.5)'],
		[{ requestsPerMinute: -1 }, 'Invalid "Max Requests per Minute": Max Requests per Minute must be at least 0 (got -1)'],
		[{ requestsPerMinute: 0.5 }, 'Invalid "Max Requests per Minute": Max Requests per Minute must be 0 (no cap) or at least 1 (got 0.5)'],
		[{ timeoutSeconds: 0 }, 'Invalid "Timeout (Seconds)": Timeout (Seconds) must be above 0 and at most 2147483 (got 0)'],
		[{ timeoutSeconds: 2147484 }, 'Invalid "Timeout (Seconds)": Timeout (Seconds) must be above 0 and at most 2147483 (got 2147484)'],
		[{ dailyLimitWarnShare: 2 }, 'Invalid "Warn at Share of Daily Limit": Warn at Share of Daily Limit must be above 0 and at most 1 (got 2)'],
	])('refuses %p', (settings, message) => {
		expect(() => readRequestSettings(node, settings)).toThrow(message);
	});
});

describe('usage hints', () => {
	const usage = { apiUsage: 12_345, apiDailyUsage: 850 };

	it('say nothing without counters', () => {
		expect(usageHints(undefined, { dailyLimitWarnShare: 0.8 })).toEqual([]);
	});

	it('report the counters, and the share of a limit when one is entered', () => {
		expect(usageHints(usage, { dailyLimitWarnShare: 0.8 })).toEqual([
			{ message: 'The tracking service counts 850 API calls today for this account, 12,345 in all.', location: 'outputPane' },
		]);
		expect(usageHints(usage, { dailyRequestLimit: 2000, dailyLimitWarnShare: 0.8 })[0]).toEqual({
			message: expect.stringContaining('43% of the Daily Request Limit of 2,000'),
			location: 'outputPane',
		});
	});

	it('warn from the share on', () => {
		expect(usageHints(usage, { dailyRequestLimit: 1000, dailyLimitWarnShare: 0.85 })[0]).toMatchObject({ type: 'warning' });
		expect(usageHints(usage, { dailyRequestLimit: 1000, dailyLimitWarnShare: 0.9 })[0].type).toBeUndefined();
	});
});

describe('one quota per account', () => {

	it('holds a cap for the sum of every run on the account', async () => {
		const clock = fakeClock();
		const quota = new AccountQuota(clock);
		const runs = [1, 2, 3].map(() => new RequestPacer({ maxConcurrency: 4, requestsPerMinute: 5 }, clock, quota));
		const sentAt: number[] = [];
		await Promise.all(
			runs.flatMap((pacer) =>
				Array.from({ length: 5 }, async () => {
					const release = await pacer.acquire();
					sentAt.push(clock.now());
					release();
				}),
			),
		);
		const mostInAWindow = Math.max(...sentAt.map((start) => sentAt.filter((at) => at >= start && at < start + 60_000).length));
		expect(mostInAWindow).toBeLessThanOrEqual(5);
		expect(sentAt).toHaveLength(15);
	});

	it('frees at once the place of a request counted but not sent', async () => {
		const clock = fakeClock();
		const quota = new AccountQuota(clock);
		const capped = () => new RequestPacer({ maxConcurrency: 4, requestsPerMinute: 3 }, clock, quota);
		const sent = await Promise.all([capped().acquire(), capped().acquire()]);
		const refused = await capped().acquire();
		const admitted: string[] = [];
		const first = capped().acquire().then(() => admitted.push('first'));
		const second = capped().acquire().then(() => admitted.push('second'));
		refused(false);
		await first;
		expect(clock.now()).toBe(0);
		expect(admitted).toEqual(['first']);
		// The window holds three again: the second waits for the oldest answer to leave it.
		sent[0]();
		await second;
		expect(admitted).toEqual(['first', 'second']);
		expect(clock.now()).toBe(60_000);
	});

	it('lets a run allowing fewer requests at once take its turn, not wait for a busier run to end', async () => {
		const clock = fakeClock();
		const quota = new AccountQuota(clock);
		const busy = new RequestPacer({ maxConcurrency: 8 }, clock, quota);
		const small = new RequestPacer({ maxConcurrency: 1 }, clock, quota);
		const releases = await Promise.all(Array.from({ length: 8 }, () => busy.acquire()));
		let smallSent = false;
		const smallTurn = small.acquire().then((release) => {
			smallSent = true;
			return release;
		});

		// The busy run keeps sending: each answer frees a slot and its next request asks for one.
		// Overtaking the small run's request every time, it held it back until the whole batch ended.
		const next = releases.map((release) => {
			release();
			return busy.acquire();
		});
		await new Promise((resolve) => setImmediate(resolve));

		expect(smallSent).toBe(true);
		(await smallTurn)();
		(await Promise.all(next)).forEach((release) => release());
	});

	it('pauses every run on the account after one of them meets a 429', async () => {
		const clock = fakeClock();
		const quota = new AccountQuota(clock);
		const [first, second] = [1, 2].map(() => new RequestPacer({ maxConcurrency: 4 }, clock, quota));
		first.throttled(3_000, true);
		const release = await second.acquire();
		expect(clock.now()).toBe(3_000);
		release();
	});

	describe('a system clock set back or forward', () => {
		const T0 = Date.parse('2026-05-04T08:00:00Z');
		const HOUR = 3_600_000;
		afterEach(() => jest.useRealTimers());

		/** 'sent' when the pacer lets a request go within `ms` of real time. */
		const sendsWithin = (pacer: RequestPacer, ms: number) =>
			Promise.race([
				pacer.acquire().then((release) => {
					release();
					return 'sent';
				}),
				new Promise((resolve) => setTimeout(() => resolve(`still waiting after ${ms} ms`), ms).unref()),
			]);

		/** Timers, Date and `performance` fake; Date set apart from the others moves the system clock alone. */
		const fakeTime = () => jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });

		it("does not move the pacer's time", () => {
			const setNow = fakeDateFrom(T0);
			const before = systemClock.now();
			setNow(T0 - HOUR);
			expect(systemClock.now() - before).toBeLessThan(1_000);
			setNow(T0 + HOUR);
			expect(systemClock.now() - before).toBeLessThan(1_000);
		});

		it('does not stretch the pause after a 429 by the hour it was set back', async () => {
			const setNow = fakeDateFrom(T0);
			const pacer = new RequestPacer({ maxConcurrency: 1 }, systemClock, new AccountQuota(systemClock));
			pacer.throttled(300, true);
			setNow(T0 - HOUR);
			const started = performance.now();
			expect(await sendsWithin(pacer, 3_000)).toBe('sent');
			expect(performance.now() - started).toBeGreaterThanOrEqual(250);
		});

		it('ends a Max Requests per Minute window a minute after its request, whenever the clock was set back', async () => {
			fakeTime();
			const pacer = new RequestPacer({ maxConcurrency: 1, requestsPerMinute: 1 }, systemClock, new AccountQuota(systemClock));
			(await pacer.acquire())();
			// A minute passes; the clock is set back an hour in it, with no request to see the step.
			await jest.advanceTimersByTimeAsync(61_000);
			jest.setSystemTime(Date.now() - HOUR);
			let sent = false;
			void pacer.acquire().then((release) => {
				release();
				sent = true;
			});
			await jest.advanceTimersByTimeAsync(10);
			expect(sent).toBe(true);
		});

		it('holds Max Requests per Minute while the clock flips back and forth', async () => {
			fakeTime();
			const quota = new AccountQuota(systemClock);
			let sent = 0;
			// A new run on the account every 50 ms (items, polls), the clock flipping ±90 s every 250 ms.
			for (let tick = 1; tick <= 60; tick++) {
				void new RequestPacer({ maxConcurrency: 1, requestsPerMinute: 5 }, systemClock, quota).acquire().then((release) => {
					release();
					sent++;
				});
				if (tick % 5 === 0) jest.setSystemTime(T0 + tick * 50 + (tick % 10 === 0 ? -90_000 : 90_000));
				await jest.advanceTimersByTimeAsync(50);
			}
			expect(sent).toBe(5);
		});
	});

	it('shares one quota per account and forgets accounts idle for a minute', async () => {
		const clock = fakeClock();
		clock.time = 1_000_000;
		const a = quotaForAccount('https://x\na@b.c', clock);
		expect(quotaForAccount('https://x\na@b.c', clock)).toBe(a);
		expect(quotaForAccount('https://x\nother@b.c', clock)).not.toBe(a);
		const release = await new RequestPacer({ maxConcurrency: 1 }, clock, a).acquire();
		clock.time += 120_000;
		quotaForAccount('https://y\nz@b.c', clock);
		expect(quotaForAccount('https://x\na@b.c', clock)).toBe(a);
		release();
		clock.time += 61_000;
		const before = trackedAccounts();
		expect(quotaForAccount('https://x\na@b.c', clock)).not.toBe(a);
		expect(trackedAccounts()).toBeLessThanOrEqual(before);
	});

	it('keeps an account idle for a minute while the rate learned from its 429 is in force', async () => {
		const clock = fakeClock();
		clock.time = 2_000_000;
		const account = 'https://x\nthrottled@b.c';
		const sweep = () => quotaForAccount('https://y\nanother@b.c', clock);
		const quota = quotaForAccount(account, clock);
		const pacer = new RequestPacer({ maxConcurrency: 1 }, clock, quota);
		for (let i = 0; i < 200; i++) {
			clock.time += 5;
			(await pacer.acquire())();
			pacer.succeeded();
		}
		pacer.throttled(1000, true);
		// Idle past the minute an unused account is kept: the next run still sends at the learned rate.
		// It was forgotten, so a workflow run every few minutes met a 429 and its pause at every run.
		clock.time += 61_000;
		sweep();
		const later = quotaForAccount(account, clock);
		expect(later).toBe(quota);
		const nextRun = new RequestPacer({ maxConcurrency: 8 }, clock, later);
		(await nextRun.acquire())();
		const sentFirst = clock.time;
		(await nextRun.acquire())();
		expect(clock.time - sentFirst).toBeCloseTo(1000 / (200 * 0.98), 6);
		// The rate lapses five minutes after its 429; a minute's idleness after that forgets the account.
		clock.time += 5 * 60_000;
		sweep();
		expect(quotaForAccount(account, clock)).not.toBe(quota);
	});
});

describe("the credential's authenticate", () => {
	const entered = { baseUrl: 'https://api.example', userName: 'ops@example.com', apiKey: 'key-1' };
	const authenticate = (credentials: Record<string, unknown>) =>
		(new SatelliteTrackingApi().authenticate as (c: object, o: IHttpRequestOptions) => Promise<IHttpRequestOptions>)(credentials, { url: '/api/groups' });

	it('sends the stored token with the values it was fetched with', async () => {
		const options = await authenticate({ ...entered, token: 'tok', tokenFingerprint: credentialFingerprint(entered) });
		expect(options.headers).toEqual({ Authorization: 'Bearer tok' });
	});

	it.each([
		['another Base URL', { baseUrl: 'http://127.0.0.1:9' }],
		['another key', { apiKey: 'key-2' }],
		['no token', { token: '' }],
	])('refuses it, as a 401 would, for %s: n8n then exchanges one for what is entered now', async (_, change) => {
		const stored = { ...entered, token: 'tok', tokenFingerprint: credentialFingerprint(entered) };
		await expect(authenticate({ ...stored, ...change })).rejects.toMatchObject({ response: { status: 401 } });
	});
});
