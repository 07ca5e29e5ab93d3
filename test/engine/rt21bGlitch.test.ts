/** Red team rt21b (issue 21): a glitch fix dated ahead, as real time catches up with its date. */

import { fakeDateFrom } from '../support/clock';
import { locationUpdates, triggerState, watchScriptedDevice, withTriggerSandbox } from '../support/trigger';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-05-04T08:00:00Z');

afterEach(() => jest.useRealTimers());


// Every Fix never reads the last location, so it never learned of the glitch: once real time came within
// a day of its date, the range read held it, it was reported and hid every real fix until that date. A
// lone fix ahead of the poll, with no other within an hour of it, is now left out (a clock running ahead
// sends them close together).
describe.each([
	['latestFix', it],
	['everyFix', it],
])('rt21b: a glitch dated 30 hours ahead (%s)', (readMode, test) => {
	test('real fixes keep being reported when real time comes within a day of the glitch date', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { add, parameters, staticData } = await watchScriptedDevice(h, 'glitch', T0 - MINUTE, { events: ['locationUpdated'], readMode });
			add(T0 + 30 * HOUR, 99);
			const expected: string[] = [];
			const reported: string[] = [];
			// Every 30 minutes for 8 hours: the glitch comes within a day of the poll after 6 hours.
			for (let poll = 1; poll <= 16; poll++) {
				const at = T0 + poll * 30 * MINUTE;
				add(at - MINUTE, poll);
				expected.push(new Date(at - MINUTE).toISOString());
				setNow(at);
				reported.push(...locationUpdates(await h.poll(parameters, staticData)));
			}
			const state = triggerState(staticData).devices.glitch;
			expect({ reported, fixAt: state.fix?.at }).toEqual({ reported: expected, fixAt: expected[expected.length - 1] });
		});
	}, 60_000);
});
