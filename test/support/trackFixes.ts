/** Fixes of a made-up day for the Export Track suites: parked, driving north, parked, driving on. */
import type { Location } from '../../nodes/shared/wire';

const MINUTE = 60_000;
/** One degree of latitude on the haversine sphere, in metres. */
const METERS_PER_DEGREE = 111_195.08;

export interface Leg {
	kind: 'park' | 'drive';
	minutes: number;
	/** Driving speed. */
	kmh?: number;
}

export const ROUND: Leg[] = [
	{ kind: 'park', minutes: 10 },
	{ kind: 'drive', minutes: 20, kmh: 40 },
	{ kind: 'park', minutes: 15 },
	{ kind: 'drive', minutes: 12, kmh: 50 },
	{ kind: 'park', minutes: 10 },
];

/** One fix a minute from `start`, heading north from (`latitude`, `longitude`), with speed and course. */
export function fixesOf(legs: Leg[], start: string, latitude = 52.5, longitude = 13.4): Location[] {
	const fixes: Location[] = [];
	let at = Date.parse(start);
	let north = latitude;
	for (const leg of legs) {
		for (let minute = 0; minute < leg.minutes; minute++) {
			const kmh = leg.kind === 'drive' ? leg.kmh! : 0;
			fixes.push({ dateTime: new Date(at).toISOString(), latitude: round6(north), longitude, speed: kmh, course: kmh > 0 ? 0 : 90 });
			at += MINUTE;
			north += (kmh * 1000) / 60 / METERS_PER_DEGREE;
		}
	}
	return fixes;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;
