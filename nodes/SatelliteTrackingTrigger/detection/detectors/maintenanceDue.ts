import { toNumberInRange, toPositive } from '../../../shared/validation';
import { deviceEvent, type Detector } from '../detector';
import type { Location } from '../../../shared/wire';
import { numericValue } from '../fixes';
import type { TriggerEvent } from '../types';

export const DEFAULT_SERVICE_INTERVAL_KM = 10_000;
export const DEFAULT_SERVICE_START_KM = 0;

/** More than a day's driving between two readings: taken only once the next reading agrees. */
const MAX_ODOMETER_LEAP_KM = 2_000;

/** A service every `intervalKm` of the odometer, counted from `startKm`. */
export interface ServiceInterval {
	intervalKm: number;
	startKm: number;
}

declare module '../types' {
	interface DetectionSettings {
		/** maintenanceDue: absent when the event is not watched. */
		service?: ServiceInterval;
	}
	interface DeviceState {
		/**
		 * maintenanceDue: the highest odometer seen (a reading below it, stale or glitched, passes no
		 * mark until the odometer is past it again), and the last service mark reported.
		 */
		odometer?: number;
		serviceDueKm?: number;
		/** A reading more than MAX_ODOMETER_LEAP_KM above `odometer`, held until the next reading agrees with it. */
		odometerLeap?: number;
	}
	interface EventOutput {
		/** The fix's odometer, and the service mark (a multiple of the interval past the start) it passed. */
		maintenanceDue: { milleage: number; serviceDueKm: number };
	}
}

/** The service marks passed up to `odometer`: 0 before the first one. */
const marksPassed = (odometer: number, service: ServiceInterval) => Math.max(0, Math.floor((odometer - service.startKm) / service.intervalKm));

/**
 * The odometer (`milleage`, taken as km: the unit the vendor's app shows) passing a service mark,
 * Service Start + n × Service Interval: reported once per mark, at the first fix past it. An odometer
 * that jumps several marks at once reports the highest; one that goes back (a reset, a glitch) and
 * forward again never reports a mark twice. The first odometer seen is the baseline, and the
 * marks count up from the highest one seen since: a reading below it (a record without the CAN
 * data, which the API sends as 0, or a stale one) and the odometer back again pass no mark.
 */
export const maintenanceDue: Detector = {
	properties: [
		{
			displayName: 'Service Interval (Km)',
			name: 'serviceIntervalKm',
			type: 'number',
			default: DEFAULT_SERVICE_INTERVAL_KM,
			typeOptions: { minValue: 1 },
			description: "Report each time a device's odometer passes another multiple of this many km since Service Start",
		},
		{
			displayName: 'Service Start (Km)',
			name: 'serviceStartKm',
			type: 'number',
			default: DEFAULT_SERVICE_START_KM,
			typeOptions: { minValue: 0 },
			description: 'The odometer reading the intervals count from, e.g. at the last service',
		},
	],
	needs: { telemetry: true },
	settings: (read) => ({
		service: read.events.includes('maintenanceDue')
			? {
					intervalKm: read.check('Service Interval (Km)', toPositive(read.parameter('serviceIntervalKm', DEFAULT_SERVICE_INTERVAL_KM))),
					startKm: read.check('Service Start (Km)', toNumberInRange(read.parameter('serviceStartKm', DEFAULT_SERVICE_START_KM), 0, Number.MAX_SAFE_INTEGER)),
				}
			: undefined,
	}),
	detect(observation, previous, settings) {
		const service = settings.service;
		if (!service) return { events: [] };
		const events: TriggerEvent[] = [];
		let { odometer, serviceDueKm, odometerLeap } = previous;
		for (const fix of observation.readings) {
			const reading = numericValue(fix, 'milleage');
			// 0 is what the API sends for a device without an odometer, or a record without it.
			if (reading === undefined || reading <= 0) continue;
			// A leap is a glitch until a second reading agrees with it: one spike must not pass marks
			// nor lift the highest reading above every real one to come.
			if (odometer !== undefined && reading - odometer > MAX_ODOMETER_LEAP_KM) {
				const confirmed = odometerLeap !== undefined && reading >= odometerLeap && reading - odometerLeap <= MAX_ODOMETER_LEAP_KM;
				if (!confirmed) {
					odometerLeap = reading;
					continue;
				}
			}
			odometerLeap = undefined;
			const passed = marksPassed(reading, service);
			const mark = service.startKm + passed * service.intervalKm;
			if (odometer !== undefined && passed > marksPassed(odometer, service) && mark > (serviceDueKm ?? -Infinity)) {
				events.push(deviceEvent('maintenanceDue', observation, fix, { milleage: reading, serviceDueKm: mark }, [mark]));
				serviceDueKm = mark;
			}
			odometer = odometer === undefined ? reading : Math.max(odometer, reading);
		}
		return { events, state: { odometer, serviceDueKm, odometerLeap } };
	},
	sample(_kind, observation, settings) {
		// The newest fix's odometer, as if it had just passed the mark below it (the first mark when it has none).
		const service = settings.service ?? { intervalKm: DEFAULT_SERVICE_INTERVAL_KM, startKm: DEFAULT_SERVICE_START_KM };
		const fix = observation.newest ?? null;
		const reading = fix ? numericValue(fix as Partial<Location>, 'milleage') : undefined;
		const serviceDueKm = service.startKm + Math.max(1, marksPassed(reading ?? 0, service)) * service.intervalKm;
		return deviceEvent('maintenanceDue', observation, fix, { milleage: Math.max(reading ?? 0, serviceDueKm), serviceDueKm });
	},
};
