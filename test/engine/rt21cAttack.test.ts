/** Red team rt21c (issue 21): the lone-future-fix rule of Every Fix, attacked. */
import type { IDataObject } from 'n8n-workflow';

import type { Location } from '../../nodes/shared/wire';
import { fakeDateFrom } from '../support/clock';
import { addFix, locationUpdates, withTriggerSandbox, addScriptedDevice, SCRIPTED_DEVICES, restartedFrom, watchScriptedDevice } from '../support/trigger';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-05-04T08:00:00Z');

afterEach(() => jest.useRealTimers());


describe('rt21c: Every Fix and fixes dated ahead', () => {
	it('a glitch sent twice at the same date (a position and its alarm record) does not hide the real fixes', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { add, parameters, staticData } = await watchScriptedDevice(h, 'glitch', T0 - MINUTE, { events: ['locationUpdated'], readMode: 'everyFix' });
			add(T0 + 10 * HOUR, 99);
			add(T0 + 10 * HOUR, 99, { hasCriticalAlert: true, alertTexts: ['SOS'] });
			const expected: string[] = [];
			const reported: string[] = [];
			for (let poll = 1; poll <= 8; poll++) {
				const at = T0 + poll * 30 * MINUTE;
				add(at - MINUTE, poll);
				expected.push(new Date(at - MINUTE).toISOString());
				setNow(at);
				reported.push(...locationUpdates(await h.poll(parameters, staticData)));
			}
			expect(reported).toEqual(expected);
		});
	}, 60_000);

	// Defect found, not fixed: every fix waits until real time reaches its date (181 min here), not a poll.
	it.failing('a device whose clock runs 3 h ahead, reporting every 2 h, has each fix reported a poll after it arrives, once, and is never silent', async () => {
		const AHEAD = 3 * HOUR;
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			addScriptedDevice(h.sandbox, 'ahead');
			const add = (real: number, step: number) =>
				addFix(h.sandbox, 'ahead', real + AHEAD, step);
			add(T0 - MINUTE, 0);
			const parameters = { events: ['locationUpdated', 'deviceSilent'], readMode: 'everyFix', silentAfterMinutes: 150, ...SCRIPTED_DEVICES };
			let staticData: IDataObject = {};
			await h.poll(parameters, staticData);
			const late: string[] = [];
			const reported: string[] = [];
			const silent: string[] = [];
			const sentAt = new Map<string, number>();
			for (let minute = 10; minute <= 12 * 60; minute += 10) {
				const at = T0 + minute * MINUTE;
				if (minute % 120 === 0) {
					const fix = add(at - MINUTE, minute / 120);
					sentAt.set(String(fix.dateTime), at - MINUTE);
				}
				if (minute === 6 * 60 + 30) {
					staticData = restartedFrom(staticData);
					h.restart();
				}
				setNow(at);
				const events = await h.poll(parameters, staticData);
				silent.push(...events.filter((e) => e.event === 'deviceSilent').map(() => new Date(at).toISOString()));
				for (const dateTime of locationUpdates(events)) {
					reported.push(dateTime);
					if (at - sentAt.get(dateTime)! > 15 * MINUTE) late.push(`${dateTime} reported ${(at - sentAt.get(dateTime)!) / MINUTE} min after it arrived`);
				}
			}
			expect({ reported, late, silent }).toEqual({ reported: [...sentAt.keys()], late: [], silent: [] });
		});
	}, 60_000);

	// Limitation: a glitch within an hour of a clock-ahead device's fixes looks like one of them; the real fixes
	// dated before it become late (alerts only) and their Location Updated is lost.
	it.failing('a device 3 h ahead every 10 min: a glitch 40 min past its newest fix does not hide the real fixes', async () => {
		const AHEAD = 3 * HOUR;
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { add, parameters, staticData } = await watchScriptedDevice(h, 'ahead', T0 + AHEAD - MINUTE, { events: ['locationUpdated', 'criticalAlert'], readMode: 'everyFix' });
			const expected: string[] = [];
			const reported: string[] = [];
			for (let poll = 1; poll <= 9; poll++) {
				const at = T0 + poll * 10 * MINUTE;
				expected.push(String(add(at + AHEAD - MINUTE, poll).dateTime));
				if (poll === 2) add(at + AHEAD + 40 * MINUTE, 99);
				setNow(at);
				reported.push(...locationUpdates(await h.poll(parameters, staticData)));
			}
			expect(reported).toEqual(expected);
		});
	}, 60_000);

	it('a device 3 h ahead: an SOS record uploaded late, dated 10 min before its newest fix, is reported once', async () => {
		const AHEAD = 3 * HOUR;
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const watched = await watchScriptedDevice(h, 'ahead', T0 + AHEAD - MINUTE, { events: ['locationUpdated', 'criticalAlert'], readMode: 'everyFix' });
			const { add, parameters } = watched;
			let staticData = watched.staticData;
			const sos: string[] = [];
			for (let poll = 1; poll <= 6; poll++) {
				const at = T0 + poll * 5 * MINUTE;
				add(at + AHEAD - MINUTE, poll);
				if (poll === 3) add(at + AHEAD - 11 * MINUTE, 2, { hasCriticalAlert: true, alertTexts: ['SOS'] });
				if (poll === 4) {
					staticData = restartedFrom(staticData);
					h.restart();
				}
				setNow(at);
				sos.push(...(await h.poll(parameters, staticData)).filter((e) => e.event === 'criticalAlert').map((e) => (e.location as Location).dateTime));
			}
			expect(sos).toEqual([new Date(T0 + 15 * MINUTE + AHEAD - 11 * MINUTE).toISOString()]);
		});
	}, 60_000);

	it('Max Requests per Poll 2 with three devices 3 h ahead every 2 h: every fix reported once', async () => {
		const AHEAD = 3 * HOUR;
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const ids = ['a', 'b', 'c'];
			for (const id of ids) addScriptedDevice(h.sandbox, id);
			const add = (id: string, real: number, step: number) =>
				addFix(h.sandbox, id, real + AHEAD, step);
			for (const id of ids) add(id, T0 - MINUTE, 0);
			const parameters = { events: ['locationUpdated'], readMode: 'everyFix', ...SCRIPTED_DEVICES, requestSettings: { maxRequestsPerPoll: 2 } };
			const staticData: IDataObject = {};
			for (let i = 0; i < 3; i++) await h.poll(parameters, staticData);
			const sent: string[] = [];
			const reported: string[] = [];
			for (let minute = 10; minute <= 16 * 60; minute += 10) {
				const at = T0 + minute * MINUTE;
				if (minute % 120 === 0 && minute <= 10 * 60) for (const id of ids) sent.push(`${id}@${add(id, at - MINUTE, minute / 120).dateTime}`);
				setNow(at);
				reported.push(...(await h.poll(parameters, staticData)).filter((e) => e.event === 'locationUpdated').map((e) => `${e.deviceId}@${(e.location as Location).dateTime}`));
			}
			expect(reported.sort()).toEqual(sent.sort());
		});
	}, 60_000);

	it('a device with a true clock every 5 min: a glitch dated 50 min ahead does not hide the real fixes', async () => {
		const setNow = fakeDateFrom(T0);
		await withTriggerSandbox({ deviceCount: 1 }, async (h) => {
			const { add, parameters, staticData } = await watchScriptedDevice(h, 'glitch', T0 - MINUTE, { events: ['locationUpdated'], readMode: 'everyFix' });
			const expected: string[] = [];
			const reported: string[] = [];
			for (let poll = 1; poll <= 8; poll++) {
				const at = T0 + poll * 5 * MINUTE;
				expected.push(String(add(at - MINUTE, poll).dateTime));
				if (poll === 2) add(at + 50 * MINUTE, 99);
				setNow(at);
				reported.push(...locationUpdates(await h.poll(parameters, staticData)));
			}
			expect(reported).toEqual(expected);
		});
	}, 60_000);
});
