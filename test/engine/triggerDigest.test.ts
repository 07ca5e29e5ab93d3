/**
 * Issue 21, the red team: a tracker without a GPS lock (a reefer in a cold store) repeats its time and
 * position for hours while its temperature changes. Past 20 readings at one timestamp the state kept
 * them in a 1,024-bit Bloom filter, full after a few hundred: new readings were taken for seen. Now
 * it keeps the newest fingerprints and how many share the timestamp. In the slow suites
 * (scripts/test.sh): a day of polls.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { fakeDateFrom } from '../support/clock';
import { withTriggerSandbox, addScriptedDevice, SCRIPTED_DEVICES, eventsOfKind } from '../support/trigger';

const MINUTE = 60_000;
const T0 = Date.parse('2026-05-04T08:00:00Z');

afterEach(() => jest.useRealTimers());


describe.each(['latestFix', 'everyFix'])('a tracker without a GPS lock (%s)', (readMode) => {
	it('a reefer without a GPS lock for a day: every temperature crossing is reported', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			addScriptedDevice(h.sandbox, 'reefer');
			const noLock = { dateTime: new Date(T0 - 30 * MINUTE).toISOString(), latitude: 5, longitude: 5 };
			h.sandbox.store.addFix('reefer', { ...noLock, temperature: 2 });
			const parameters: INodeParameters = {
				events: ['valueCrossed'],
				readMode,
				...SCRIPTED_DEVICES,
				thresholdRules: { rule: [{ field: 'temperature', direction: 'above', value: 8, hysteresis: 1 }] },
			};
			const staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			const missed: number[] = [];
			let expected = 0;
			// A day at one reading per 5 minutes: the cooling fails every 20th reading and recovers.
			for (let poll = 1; poll <= 320; poll++) {
				const warm = poll % 20 === 10;
				// Every reading its own value, as a real probe's are.
				const temperature = warm ? 9 + poll / 1000 : 2 + poll / 1000;
				h.sandbox.store.addFix('reefer', { ...noLock, temperature });
				setNow(T0 + poll * 5 * MINUTE);
				const events = await h.poll(parameters, staticData);
				if (warm) {
					expected++;
					if (eventsOfKind(events, 'valueCrossed').length !== 1) missed.push(poll);
				}
			}
			expect({ expected, missed }).toEqual({ expected, missed: [] });
		});
	}, 120_000);

});
