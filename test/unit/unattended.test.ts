/** Issue 21, the pure parts: unreadable records, declared failures, telemetry repeats. */
import { freshFixes } from '../../nodes/SatelliteTrackingTrigger/detection/fixes';
import { readsTelemetry } from '../../nodes/SatelliteTrackingTrigger/detection/needs';
import { countNotifications, undatedAlerts } from '../../nodes/shared/notifications';
import { declaredPollError } from '../../nodes/SatelliteTrackingTrigger/failures';
import { declare, declaredFailure, failureOf } from '../../nodes/shared/transport/failure';
import { ApplicationError, type INode } from 'n8n-workflow';

import { describeHttpFailure, toNodeApiError } from '../../nodes/shared/transport/failure';
import type { Alert, Location } from '../../nodes/shared/wire';
import { circleGeofence } from '../../nodes/shared/geo/geofence';
import type { DetectionSettings, TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { detectionSettings, pollDevice } from '../support/trigger';

const at = (minute: number) => new Date(Date.UTC(2026, 4, 4, 8, minute)).toISOString();
const fix = (minute: number, extra: Partial<Location> = {}): Location => ({ dateTime: at(minute), latitude: 1, longitude: 2, ...extra });

describe('records without a readable date', () => {
	const broken = [{ dateTime: null }, { dateTime: 1_780_000_000_000 }, {}, null] as unknown as Location[];

	it('are skipped and counted by the trigger, never thrown', () => {
		const result = freshFixes({}, [fix(1), ...broken, fix(2)], new Date(at(5)));
		expect(result.fresh.map((f) => f.dateTime)).toEqual([at(1), at(2)]);
		expect(result.unreadable).toBe(4);
	});

	it('are left out of the daily counts and counted apart (Get Notification Counters, Daily Limit Near)', () => {
		const alerts = [
			{ dateTime: at(1), notifications: ['Email'] },
			{ dateTime: null, notifications: ['Email'] },
			{ notifications: ['SMS'] },
			{ dateTime: 5, notifications: ['SMS'] },
		] as unknown as Alert[];
		expect(countNotifications(alerts, { from: at(0), to: at(59) })).toEqual({ email: 1, sms: 0 });
		expect(undatedAlerts(alerts)).toBe(3);
	});
});

describe('declared failures (what n8n\'s scheduler reads)', () => {
	it('says rate-limited with the wait the service asked, uncapped; an outage for 5xx and network failures', () => {
		expect(declaredFailure(describeHttpFailure(429, {}, { 'retry-after': '7200' }))).toEqual({ cause: 'rate-limited', retryAfterMs: 7_200_000 });
		expect(declaredFailure(describeHttpFailure(429, {}))).toEqual({ cause: 'rate-limited' });
		expect(declaredFailure(describeHttpFailure(503, {}, { 'retry-after': '30' }))).toEqual({ cause: 'temporarily-unavailable', retryAfterMs: 30_000 });
		expect(declaredFailure(describeHttpFailure(502, '<html>'))).toEqual({ cause: 'temporarily-unavailable' });
		expect(declaredFailure({ message: 'reset', networkCode: 'ECONNRESET' })).toEqual({ cause: 'temporarily-unavailable' });
		expect(declaredFailure({ message: 'no', status: 401, tokenRefused: true })).toEqual({ cause: 'credential-invalid' });
		expect(declaredFailure(describeHttpFailure(400, { error: 'bad' }))).toBeUndefined();
	});

	it('rides on every NodeApiError the transport builds (the action node\'s too), as a plain property', () => {
		const node = { id: 'n', name: 'Satellite Tracking', type: 'satelliteTracking', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
		const error = toNodeApiError(node, describeHttpFailure(429, { error: 'slow down' }, { 'retry-after': '90' }), 0);
		expect(JSON.parse(JSON.stringify({ failure: (error as { failure?: unknown }).failure }))).toEqual({ failure: { cause: 'rate-limited', retryAfterMs: 90_000 } });
		expect(toNodeApiError(node, describeHttpFailure(400, {}))).not.toHaveProperty('failure');
	});

	it("keep the poll's error message where n8n stores a failed poll, as JSON, whatever was thrown", () => {
		// A bare ApplicationError or TypeError keeps its message in no JSON: the saved execution said only
		// "Problem in node" (helper-47, in the editor, for "No device read ended within Max Poll Time").
		const node = { id: 't', name: 'Trigger', type: 'satelliteTrackingTrigger', typeVersion: 1, position: [0, 0], parameters: {} } as INode;
		const stored = (error: Error) => JSON.parse(JSON.stringify(error)) as { message?: string };
		const declaredOnce = declare(new ApplicationError('No device read ended within Max Poll Time'), { cause: 'temporarily-unavailable' });
		const slow = declaredPollError(node, declaredOnce);
		expect([stored(slow).message, failureOf(slow)]).toEqual(['No device read ended within Max Poll Time', { cause: 'temporarily-unavailable' }]);
		const typeError = new TypeError("Cannot read properties of undefined (reading 'id')");
		const bug = declaredPollError(node, typeError);
		expect([stored(bug).message, failureOf(bug)]).toEqual(["Cannot read properties of undefined (reading 'id')", { cause: 'node-defect' }]);
		// Where the defect was, for whoever reads n8n's log (helper-48: the stack began in failures.ts).
		expect([bug.stack, (bug as { cause?: unknown }).cause]).toEqual([typeError.stack, typeError]);
		const api = toNodeApiError(node, describeHttpFailure(503, { error: 'maintenance' }));
		expect(declaredPollError(node, api)).toBe(api);
	});
});

describe('telemetry on a record repeating its GPS time and position', () => {
	const reefer = (temperature: number, inputs: boolean[]) => fix(1, { temperature, inputs });

	it('is a reading for the events that read telemetry, not a new fix for the others', () => {
		const first = freshFixes({}, [reefer(4, [false])], new Date(at(5)), true);
		const next = freshFixes(first, [reefer(4, [false]), reefer(11, [true])], new Date(at(10)), true);
		expect(next.fresh).toEqual([]);
		expect(next.readings).toEqual([reefer(11, [true])]);
		const again = freshFixes(next, [reefer(4, [false]), reefer(11, [true])], new Date(at(15)), true);
		expect(again.readings).toEqual([]);
	});

	it('is no news when no selected event reads telemetry', () => {
		const first = freshFixes({}, [reefer(4, [false])], new Date(at(5)));
		expect(freshFixes(first, [reefer(11, [true])], new Date(at(10))).readings).toEqual([]);
		expect(readsTelemetry({ events: ['locationUpdated', 'criticalAlert'] })).toBe(false);
		expect(readsTelemetry({ events: ['locationUpdated', 'inputChanged'] })).toBe(true);
	});
});

describe('GPS quality: fixes that are no position', () => {
	const yard = (() => {
		const check = circleGeofence('Yard', 10, 10, 500);
		if (!check.ok) throw new Error(check.problem);
		return check.value;
	})();
	const truck = { id: 'truck', name: 'Truck', expires: null };
	const inYard = (minute: number, extra: Partial<Location> = {}) => ({ dateTime: at(minute), latitude: 10.001, longitude: 10, ...extra });
	const outside = (minute: number) => ({ dateTime: at(minute), latitude: 10.05, longitude: 10 });
	const settings = (extra: Partial<DetectionSettings> = {}) =>
		detectionSettings({ events: ['locationUpdated', 'geofenceEntered', 'geofenceExited', 'valueCrossed'], geofences: [yard], ...extra, thresholdRules: [{ field: 'temperature', direction: 'above', value: 8, hysteresis: 1 }] });
	const names = (events: TriggerEvent[][]) => events.map((poll) => poll.map((event) => event.event));

	it('(0, 0), out-of-range coordinates and impossible jumps never move a device or cross a geofence; their telemetry counts', () => {
		const polls = [
			{ fixes: [inYard(0, { temperature: 4 })], now: new Date(at(0)) },
			{ fixes: [{ dateTime: at(1), latitude: 0, longitude: 0, temperature: 9 }], now: new Date(at(2)) },
			{ fixes: [{ dateTime: at(3), latitude: 95, longitude: 10 }, { dateTime: at(4), latitude: 10, longitude: 200 }], now: new Date(at(5)) },
			// 220 km six minutes after the last position: a multipath jump.
			{ fixes: [{ dateTime: at(6), latitude: 12, longitude: 10 }], now: new Date(at(7)) },
			{ fixes: [inYard(8)], now: new Date(at(9)) },
		];
		const { events, state } = pollDevice(truck, polls, settings());
		expect(names(events)).toEqual([[], ['valueCrossed'], [], [], ['locationUpdated']]);
		// The move reported is from the last real position, not from a bad fix.
		expect(events[4][0].previousLocation).toMatchObject({ latitude: 10.001, longitude: 10 });
		expect(state.fences).toEqual({ [yard.id]: true });
		expect(state.pos).toBeUndefined();
	});

	it('a device first seen at a wrong place is not frozen there: two fixes that agree move it', () => {
		const polls = [
			{ fixes: [{ dateTime: at(0), latitude: 40, longitude: 10 }], now: new Date(at(0)) },
			{ fixes: [inYard(5)], now: new Date(at(6)) },
			{ fixes: [inYard(8, { latitude: 10.002 })], now: new Date(at(9)) },
		];
		const { events, state } = pollDevice(truck, polls, settings({ events: ['locationUpdated', 'geofenceEntered'] }));
		// Both fixes in the yard are positions, the first one too once the second agrees (issue 46.4: as trips take them).
		expect(names(events)).toEqual([[], [], ['locationUpdated', 'geofenceEntered', 'locationUpdated']]);
		expect(events[2].map((event) => (event.location as Location).dateTime)).toEqual([at(5), at(5), at(8)]);
		expect(state).not.toHaveProperty('jump');
	});

	it('a late fix older than one processed never flips a geofence back; a batch is taken in fix-time order', () => {
		const polls = [
			{ fixes: [inYard(0)], now: new Date(at(0)) },
			{ fixes: [outside(10), inYard(5)], now: new Date(at(11)) },
			{ fixes: [inYard(7)], now: new Date(at(12)) },
		];
		const { events } = pollDevice(truck, polls, settings({ events: ['geofenceEntered', 'geofenceExited'] }));
		expect(names(events)).toEqual([[], ['geofenceExited'], []]);
	});

	it('with geofenceMinMinutes, jitter across the boundary is not reported; a stay that long is, once', () => {
		const jitter = [inYard(0), outside(1), inYard(2), outside(3), inYard(4), outside(10), outside(14), outside(16), inYard(17)];
		// Each fix polled a minute after its time: a poll long after a fix would see the device silent on its side (issue 46.6).
		const polls = jitter.map((fix) => ({ fixes: [fix], now: new Date(Date.parse(fix.dateTime) + 60_000) }));
		const run = (geofenceMinMinutes: number) => names(pollDevice(truck, polls, settings({ events: ['geofenceEntered', 'geofenceExited'], geofenceMinMinutes })).events).flat();
		expect(run(0)).toEqual(['geofenceExited', 'geofenceEntered', 'geofenceExited', 'geofenceEntered', 'geofenceExited', 'geofenceEntered']);
		expect(run(5)).toEqual(['geofenceExited']);
	});

	it('with geofenceMinMinutes, jitter across the boundary from a device whose fixes reach the service 2 hours late (a clock behind) is not reported either', () => {
		const jitter = [inYard(0), outside(1), inYard(2), outside(3), inYard(4), outside(10), outside(14), outside(16), inYard(17)];
		// By the poll's clock alone each fix is two hours old: every one looked like a device silent on its side since.
		const polls = jitter.map((fix) => ({ fixes: [fix], now: new Date(Date.parse(fix.dateTime) + 121 * 60_000) }));
		const { events } = pollDevice(truck, polls, settings({ events: ['geofenceEntered', 'geofenceExited'], geofenceMinMinutes: 5 }));
		expect(names(events).flat()).toEqual(['geofenceExited']);
		// Reported at the fix that made the stay long enough (minute 10 has been outside since 10... since minute 10 to 16).
		expect(events.flat()[0].location).toMatchObject({ dateTime: at(16) });
	});

	it('with geofenceMinMinutes, a device whose clock runs 2 hours ahead that falls silent inside is entered that long after the poll that fetched its fix, not 2 hours later', () => {
		const early = (minute: number) => new Date(Date.parse(at(minute)) - 120 * 60_000);
		const polls = [
			{ fixes: [outside(0)], now: early(0) },
			{ fixes: [inYard(1)], now: early(2) },
			{ fixes: [], now: early(6) },
			{ fixes: [], now: early(12) },
			{ fixes: [], now: early(16) },
		];
		const { events } = pollDevice(truck, polls, settings({ events: ['geofenceEntered', 'geofenceExited'], geofenceMinMinutes: 10 }));
		expect(names(events)).toEqual([[], [], [], ['geofenceEntered'], []]);
	});

	it('with geofenceMinMinutes, a device that falls silent inside is entered once that long has passed by the poll\'s clock (issue 46.6)', () => {
		// Drives into the yard and is switched off: its tracker sleeps there until the morning.
		const polls = [
			{ fixes: [outside(0)], now: new Date(at(0)) },
			{ fixes: [inYard(1)], now: new Date(at(2)) },
			{ fixes: [], now: new Date(at(6)) },
			{ fixes: [], now: new Date(at(11)) },
			{ fixes: [], now: new Date(at(16)) },
		];
		const { events, state } = pollDevice(truck, polls, settings({ events: ['geofenceEntered', 'geofenceExited'], geofenceMinMinutes: 10 }));
		expect(names(events)).toEqual([[], [], [], ['geofenceEntered'], []]);
		expect(events[3][0].location).toMatchObject({ dateTime: at(1) });
		expect(state.fences).toEqual({ [yard.id]: true });
		// The morning's first fix, still inside, reports nothing more.
		const morning = pollDevice(truck, [...polls, { fixes: [inYard(600)], now: new Date(at(601)) }], settings({ events: ['geofenceEntered', 'geofenceExited'], geofenceMinMinutes: 10 }));
		expect(names(morning.events).flat()).toEqual(['geofenceEntered']);
	});
});
