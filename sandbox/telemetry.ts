/**
 * Telemetry that tells a story, for the devices that play a part in it: a reefer whose cooling
 * fails, one that failed before the sandbox started, a vehicle parked for the night whose tank is
 * drained, a tracker whose battery runs down, a door sensor opening and closing. Each story is a
 * function of the time since the sandbox started (`anchor`) plus seeded noise, so the seeded history
 * and the fixes moveDevices adds later tell the same story, and tests can know when things happen.
 */
import type { Rng } from './random';

export type TelemetryRole = 'reefer' | 'reeferFailed' | 'fuelTheft' | 'batteryDrain' | 'doorSensor';

export interface Telemetry {
	role: TelemetryRole;
	/** Epoch ms the schedule counts from: the sandbox's start. */
	anchor: number;
}

/** The schedule, in minutes from the anchor: exported so tests can say when each thing happens. */
export const TELEMETRY_SCHEDULE = {
	/** Reefers hold this temperature (°C) while the cooling works… */
	setpoint: 4.5,
	/** …climb this much per minute once it fails, up to `warmest`, and cool this fast once repaired. */
	warmingPerMinute: 0.07,
	warmest: 14,
	coolingPerMinute: 0.3,
	/** `reefer`: fails, and is repaired. */
	reeferFailsAt: 30,
	reeferRepairedAt: 110,
	/** `reeferFailed`: already failed, repaired soon after the start. */
	reeferFailedFailsAt: -120,
	reeferFailedRepairedAt: 20,
	/** `fuelTheft`: parked over the night, and this many litres go at once. */
	parkedFrom: -60,
	parkedUntil: 300,
	theftAt: 60,
	theftLitres: 35,
	/** `batteryDrain`: the battery's percentage at the anchor, and what it loses per minute. */
	batteryAtAnchor: 25,
	batteryDrainPerMinute: 0.1,
	/** `doorSensor`: input 1 is on from minute `doorOpensAt` to `doorClosesAt` of every hour after the anchor. */
	doorOpensAt: 25,
	doorClosesAt: 35,
} as const;

const S = TELEMETRY_SCHEDULE;
const MINUTE_MS = 60_000;

/** What a story sets on a fix; what it leaves out follows the walker as before. */
export interface TelemetryReading {
	parked?: boolean;
	temperature?: number;
	battery?: number;
	/** Litres gone since the previous step. */
	fuelLost?: number;
	doorOpen?: boolean;
}

/** The reading at `at` for a step that began `stepMinutes` earlier. */
export function readTelemetry(telemetry: Telemetry, at: number, stepMinutes: number, rng: Rng): TelemetryReading {
	const minute = (at - telemetry.anchor) / MINUTE_MS;
	switch (telemetry.role) {
		case 'reefer':
			return { temperature: reeferTemperature(minute, S.reeferFailsAt, S.reeferRepairedAt) + rng.between(-0.4, 0.4) };
		case 'reeferFailed':
			return { temperature: reeferTemperature(minute, S.reeferFailedFailsAt, S.reeferFailedRepairedAt) + rng.between(-0.4, 0.4) };
		case 'fuelTheft': {
			const parked = minute >= S.parkedFrom && minute < S.parkedUntil;
			const theft = minute - stepMinutes < S.theftAt && minute >= S.theftAt;
			return { parked, fuelLost: theft ? S.theftLitres : 0 };
		}
		case 'batteryDrain':
			return { battery: Math.min(100, Math.max(3, S.batteryAtAnchor - S.batteryDrainPerMinute * minute + rng.between(-0.8, 0.8))) };
		case 'doorSensor': {
			const ofHour = ((minute % 60) + 60) % 60;
			return { doorOpen: ofHour >= S.doorOpensAt && ofHour < S.doorClosesAt };
		}
	}
}

/** The temperature a reefer's probe reads, before noise. */
export function reeferTemperature(minute: number, failsAt: number, repairedAt: number): number {
	if (minute < failsAt) return S.setpoint;
	const warmed = Math.min(S.warmest, S.setpoint + S.warmingPerMinute * (Math.min(minute, repairedAt) - failsAt));
	if (minute < repairedAt) return warmed;
	return Math.max(S.setpoint, warmed - S.coolingPerMinute * (minute - repairedAt));
}
