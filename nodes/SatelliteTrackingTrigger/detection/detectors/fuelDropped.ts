import type { Location } from '../../../shared/wire';
import { deviceEvent, type Detector } from '../detector';
import { difference, fixFingerprint, fixTime, MINUTE_MS, numericValue } from '../fixes';
import type { TriggerEvent } from '../types';
import { parseServiceTime, toNumberInRange, toPositive } from '../../../shared/validation';

export const DEFAULT_FUEL_DROP_AMOUNT = 10;
export const DEFAULT_FUEL_DROP_WITHIN_MINUTES = 15;
export const DEFAULT_FUEL_DROP_MAX_SPEED = 5;

/** A fall of more than `amount` between consecutive fixes at most `withinMinutes` apart, below `maxSpeed`. */
export interface FuelDropSettings {
	amount: number;
	withinMinutes: number;
	maxSpeed: number;
}

declare module '../types' {
	interface DetectionSettings {
		/** fuelDropped: absent when the event is not watched. */
		fuelDrop?: FuelDropSettings;
	}
	interface DeviceState {
		/** fuelDropped: the newest fuel level processed, and its fix's time when that is not the newest fix's (`fix.at`). */
		fuel?: number;
		fuelAt?: string;
	}
	interface EventOutput {
		/** The fuel of the fix before, how much it fell and over how many minutes. */
		fuelDropped: { value: number; previousValue: number; dropped: number; withinMinutes: number };
	}
}

/**
 * Fuel that falls by more than the set amount between two consecutive fixes, close enough in time,
 * while the vehicle stands (or crawls): the shape of a theft or a leak, not of driving. The pair may
 * span two polls: state keeps the fuel of the newest fix processed. In Latest Fix mode the
 * consecutive fixes are the ones the polls saw.
 */
export const fuelDropped: Detector = {
	properties: [
		{
			displayName: 'Fuel Drop Amount',
			name: 'fuelDropAmount',
			type: 'number',
			default: DEFAULT_FUEL_DROP_AMOUNT,
			typeOptions: { minValue: 0 },
			description: 'Report fuel that falls by more than this (in the unit the device reports) between two consecutive fixes',
		},
		{
			displayName: 'Fuel Drop Within (Minutes)',
			name: 'fuelDropWithinMinutes',
			type: 'number',
			default: DEFAULT_FUEL_DROP_WITHIN_MINUTES,
			typeOptions: { minValue: 1 },
			description: 'Only fixes at most this far apart are compared: a fall across a longer gap is not reported',
		},
		{
			displayName: 'Fuel Drop Max Speed (Km/h)',
			name: 'fuelDropMaxSpeed',
			type: 'number',
			default: DEFAULT_FUEL_DROP_MAX_SPEED,
			typeOptions: { minValue: 0 },
			description: 'Only falls seen while the speed (km/h) is at most this: a parked or crawling vehicle',
		},
	],
	needs: { telemetry: true },
	settings: (read) => ({
		fuelDrop: read.events.includes('fuelDropped')
			? {
					amount: read.check('Fuel Drop Amount', toNumberInRange(read.parameter('fuelDropAmount', DEFAULT_FUEL_DROP_AMOUNT), 0, Infinity)),
					withinMinutes: read.check(
						'Fuel Drop Within (Minutes)',
						toPositive(read.parameter('fuelDropWithinMinutes', DEFAULT_FUEL_DROP_WITHIN_MINUTES)),
					),
					maxSpeed: read.check('Fuel Drop Max Speed (Km/h)', toNumberInRange(read.parameter('fuelDropMaxSpeed', DEFAULT_FUEL_DROP_MAX_SPEED), 0, Infinity)),
				}
			: undefined,
	}),
	detect(observation, previous, settings) {
		const config = settings.fuelDrop;
		if (!config) return { events: [] };
		const events: TriggerEvent[] = [];
		let fuel = previous.fuel;
		let fuelAt = previous.fuelAt ?? observation.previous?.at;
		for (const fix of observation.readings) {
			const now = numericValue(fix, 'fuel');
			if (now === undefined) continue;
			if (fuel !== undefined && fuelAt !== undefined) {
				const dropped = difference(fuel, now);
				const minutes = (fixTime(fix) - parseServiceTime(fuelAt)) / MINUTE_MS;
				const standing = (fix.speed ?? 0) <= config.maxSpeed;
				if (dropped > config.amount && minutes <= config.withinMinutes && standing) {
					events.push(
						deviceEvent('fuelDropped', observation, fix, {
							value: now,
							previousValue: fuel,
							dropped: round(dropped),
							withinMinutes: round(minutes),
						}, [fixFingerprint(fix, true)]),
					);
				}
			}
			fuel = now;
			fuelAt = fix.dateTime;
		}
		const newestAt = observation.readings[observation.readings.length - 1]?.dateTime ?? observation.previous?.at;
		return { events, state: { fuel, fuelAt: fuel === undefined || fuelAt === newestAt ? undefined : fuelAt } };
	},
	sample(_kind, observation, settings, consistent) {
		// The newest fuel level, as if it had just fallen by the set amount (by one more in version 2:
		// the event needs a fall of more than the amount).
		const config = settings.fuelDrop ?? { amount: DEFAULT_FUEL_DROP_AMOUNT, withinMinutes: DEFAULT_FUEL_DROP_WITHIN_MINUTES };
		const fix = observation.newest ?? null;
		const value = (fix && numericValue(fix as Partial<Location>, 'fuel')) ?? 0;
		const dropped = consistent ? round(config.amount + 1) : config.amount;
		return deviceEvent('fuelDropped', observation, fix, {
			value,
			previousValue: round(value + dropped),
			dropped,
			withinMinutes: config.withinMinutes,
		});
	},
};

function round(value: number): number {
	return Math.round(value * 100) / 100;
}
