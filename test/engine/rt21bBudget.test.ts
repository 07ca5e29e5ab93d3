/** Red team rt21b (issue 21): Max Requests per Poll at its floor, the late window, a glitch, failing devices. */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import { fakeDateFrom } from '../support/clock';
import { addFix, restartedFrom, withTriggerSandbox, addScriptedDevice, SCRIPTED_DEVICES, triggerState } from '../support/trigger';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-04T08:00:00Z');

afterEach(() => jest.useRealTimers());

const tagged = (events: TriggerEvent[]) => events.map((e) => `${e.event}|${e.deviceId}@${(e.location as Location | null)?.dateTime}`);

describe('rt21b: Max Requests per Poll of the listing and one', () => {
	it('Latest Fix: a glitch arriving at a poll with no call left for the recent range loses nothing and repeats nothing', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			addScriptedDevice(h.sandbox, 'g');
			addFix(h.sandbox, 'g', T0 - MINUTE, 0);
			const parameters = { events: ['locationUpdated', 'deviceSilent'], silentAfterMinutes: 20, ...SCRIPTED_DEVICES, requestSettings: { maxRequestsPerPoll: 2 } };
			const staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			const expected: string[] = [];
			const reported: string[] = [];
			for (let poll = 1; poll <= 8; poll++) {
				const at = T0 + poll * 5 * MINUTE;
				addFix(h.sandbox, 'g', at - MINUTE, poll);
				if (poll === 2) addFix(h.sandbox, 'g', T0 + 400 * 24 * 60 * MINUTE, 99);
				setNow(at);
				const events = await h.poll(parameters, staticData);
				expect({ poll, calls: h.lastPollRequests().length <= 2 }).toEqual({ poll, calls: true });
				reported.push(...tagged(events));
				// Latest Fix reports the newest only; the poll whose recent read had no call reports it next time.
				expected.push(`locationUpdated|g@${new Date(at - MINUTE).toISOString()}`);
			}
			// The poll that met the glitch reports nothing; the next reports the newest: one fix short, none twice, never silent.
			expect(reported.filter((entry) => entry.startsWith('deviceSilent'))).toEqual([]);
			expect(new Set(reported).size).toBe(reported.length);
			expect(reported.length).toBeGreaterThanOrEqual(7);
			expect(triggerState(staticData).devices.g.ahead).toBeDefined();
		});
	});

	it('Every Fix: a late SOS under a budget of one device a poll, one device failing with 503, reported once, only as a Critical Alert', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			for (const id of ['a', 'b']) {
				addScriptedDevice(h.sandbox, id);
				addFix(h.sandbox, id, T0 - MINUTE, 0);
			}
			const parameters = {
				events: ['locationUpdated', 'criticalAlert', 'geofenceEntered'],
				readMode: 'everyFix',
				...SCRIPTED_DEVICES,
				geofences: { circle: [{ name: 'Depot', latitude: 10.5, longitude: 1, radius: 1000 }] },
				requestSettings: { maxRequestsPerPoll: 2, maxRetries: 0 },
			};
			const staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			await h.poll(parameters, staticData);
			const all: string[] = [];
			let repeated: string[] = [];
			for (let poll = 1; poll <= 10; poll++) {
				const at = T0 + poll * 5 * MINUTE;
				for (const id of ['a', 'b']) addFix(h.sandbox, id, at - MINUTE, poll);
				// a's SOS from 10 minutes before its newest fix, uploaded late, at the depot.
				if (poll === 4) addFix(h.sandbox, 'a', at - 25 * MINUTE, 500, { hasCriticalAlert: true, alertTexts: ['SOS'] });
				if (poll === 5) h.sandbox.faults.inject({ match: { path: /\/devices\/b\// }, kind: 'status', status: 503, times: 2 });
				setNow(at);
				const before = restartedFrom(staticData);
				const events = await h.poll(parameters, staticData).catch(() => [] as TriggerEvent[]);
				if (repeated.length === 0 && events.some((e) => e.event === 'criticalAlert')) {
					h.restart();
					repeated = tagged(await h.poll(parameters, before));
					expect(repeated.filter((e) => e.startsWith('criticalAlert'))).toEqual(tagged(events).filter((e) => e.startsWith('criticalAlert')));
				}
				all.push(...tagged(events));
			}
			const sos = new Date(T0 + 20 * MINUTE - 25 * MINUTE).toISOString();
			expect(all.filter((e) => e.endsWith(`@${sos}`))).toEqual([`criticalAlert|a@${sos}`]);
			for (const id of ['a', 'b']) {
				const updates = all.filter((e) => e.startsWith(`locationUpdated|${id}@`));
				expect({ id, twice: updates.length - new Set(updates).size }).toEqual({ id, twice: 0 });
				// One device a poll, b's failures retried first: the last poll's fix of a may wait for the next.
				expect({ id, count: updates.length >= 9 }).toEqual({ id, count: true });
			}
		});
	}, 30_000);
});
