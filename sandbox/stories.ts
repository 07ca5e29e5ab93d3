/**
 * Whole days that tell a fleet story, for the devices that play one: a delivery van's round with its
 * red light, drop-offs and a stop with the engine left running; a truck idling at its depot before
 * and after a run, and again now; a truck whose odometer passes a service interval. Unlike the
 * walker's random tracks they are scripts: the day before the sandbox's start (UTC) holds the
 * round, so tests and examples can ask for "yesterday" and know every trip, stop and kilometre.
 */
import type { Location } from './vendorApi';
import type { Rng } from './random';
import type { GeoPoint } from './geoPoint';

export type StoryRole = 'deliveryRound' | 'depotIdling' | 'serviceDue';

export interface Story {
	role: StoryRole;
	/** Epoch ms of the sandbox's start: the story plays on the UTC day before it. */
	anchor: number;
}

/** One piece of a day: standing (engine on or off) or driving at a steady speed on a course. */
export type Leg =
	| { kind: 'park'; minutes: number; engine: boolean }
	| { kind: 'drive'; minutes: number; kmh: number; course: number };

const park = (minutes: number, engine = false): Leg => ({ kind: 'park', minutes, engine });
const drive = (minutes: number, kmh: number, course: number): Leg => ({ kind: 'drive', minutes, kmh, course });

const NORTH = 0;
const SOUTH = 180;
const EAST = 90;
const WEST = 270;

/** Each story's day from its start (`startsAt` hours after the story day's UTC midnight). */
export const STORY_SCRIPTS: Record<StoryRole, { startsAt: number; legs: Leg[] }> = {
	// Out 30 km north with a red light and two drops (the second with the engine running), back in one go.
	deliveryRound: {
		startsAt: 7,
		legs: [drive(20, 40, NORTH), park(2, true), drive(10, 40, NORTH), park(15), drive(15, 40, NORTH), park(20, true), drive(45, 40, SOUTH)],
	},
	// Warms up 25 minutes at the depot, a 40 km run east and back with an unloading stop, 12 minutes idling after.
	depotIdling: {
		startsAt: 5,
		legs: [park(25, true), drive(40, 60, EAST), park(30), drive(40, 60, WEST), park(12, true)],
	},
	// 100 km west and back over the day; the odometer passes SERVICE.dueKm on the way out.
	serviceDue: {
		startsAt: 8,
		legs: [drive(50, 60, WEST), park(60), drive(50, 60, EAST)],
	},
};

export const STORY_FACTS = {
	/** The odometer of the `serviceDue` truck when its story begins, and the service it passes. */
	serviceStartKm: 14_970,
	serviceIntervalKm: 5_000,
	dueKm: 15_000,
	/** The `depotIdling` truck starts its engine again this long before the sandbox's start, and idles on. */
	idlingNowMinutes: 15,
	/** Fixes every minute while the engine runs, every 5 while it is off. */
	runningEveryMinutes: 1,
	parkedEveryMinutes: 5,
	/** Parked fixes wander this far around the true spot, as GPS does. */
	wanderMeters: 8,
	idleRpm: 750,
	fuelPerKm: 0.12,
} as const;

const S = STORY_FACTS;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const METERS_PER_DEGREE_LATITUDE = 111_195;
/** Before the day's first leg, the device has stood since this long before the story day's midnight. */
const LEAD_IN_MS = 3 * 3_600_000;

/** The UTC day the stories play: the day before the sandbox's start. */
export function storyDay(anchor: number): string {
	return new Date(Math.floor(anchor / DAY_MS) * DAY_MS - DAY_MS).toISOString().slice(0, 10);
}

/** The story's fixes from the lead-in to `newestAt`, oldest first. */
export function storyHistory(story: Story, home: GeoPoint, newestAt: number, rng: Rng): Location[] {
	const dayStart = Date.parse(`${storyDay(story.anchor)}T00:00:00Z`);
	const script = STORY_SCRIPTS[story.role];
	const teller = new Teller(home, rng, story.role === 'serviceDue' ? S.serviceStartKm : rng.between(40_000, 90_000));
	let at = dayStart - LEAD_IN_MS;
	const legs: Leg[] = [park((dayStart + script.startsAt * 3_600_000 - at) / MINUTE_MS), ...script.legs];
	for (const leg of legs) at = teller.tell(leg, at, newestAt);
	if (story.role === 'depotIdling') {
		const idleFrom = story.anchor - S.idlingNowMinutes * MINUTE_MS;
		at = teller.tell(park((idleFrom - at) / MINUTE_MS), at, newestAt);
		teller.tell(park((newestAt - at) / MINUTE_MS + 1, true), at, newestAt);
	} else {
		teller.tell(park((newestAt - at) / MINUTE_MS + 1), at, newestAt);
	}
	return teller.fixes;
}

class Teller {
	readonly fixes: Location[] = [];
	private latitude: number;
	private longitude: number;
	private fuel = 80;

	constructor(
		home: GeoPoint,
		private readonly rng: Rng,
		private milleage: number,
	) {
		this.latitude = home.latitude;
		this.longitude = home.longitude;
	}

	/** Records the leg's fixes after `from` up to `until`; answers when the leg ends. */
	tell(leg: Leg, from: number, until: number): number {
		const running = leg.kind === 'drive' || leg.engine;
		const every = (running ? S.runningEveryMinutes : S.parkedEveryMinutes) * MINUTE_MS;
		const end = from + Math.max(0, leg.minutes) * MINUTE_MS;
		for (let at = from + every; at <= end && at <= until; at += every) {
			if (leg.kind === 'drive') this.move(leg.kmh, leg.course, every / MINUTE_MS);
			this.record(at, leg);
		}
		// A park leg whose length is not a multiple of its interval still ends on time.
		if (leg.kind === 'park' && (end - from) % every !== 0 && end <= until) this.record(end, leg);
		return end;
	}

	private move(kmh: number, course: number, minutes: number): void {
		const km = (kmh * minutes) / 60;
		const radians = (course * Math.PI) / 180;
		this.latitude += (km * 1000 * Math.cos(radians)) / METERS_PER_DEGREE_LATITUDE;
		this.longitude += (km * 1000 * Math.sin(radians)) / (METERS_PER_DEGREE_LATITUDE * Math.cos((this.latitude * Math.PI) / 180));
		this.milleage += km;
		this.fuel -= km * S.fuelPerKm;
	}

	private record(at: number, leg: Leg): void {
		const driving = leg.kind === 'drive';
		const running = driving || leg.engine;
		const wander = () => (driving ? 0 : (this.rng.between(-1, 1) * S.wanderMeters) / METERS_PER_DEGREE_LATITUDE);
		this.fixes.push({
			dateTime: new Date(at).toISOString(),
			latitude: round(this.latitude + wander(), 6),
			longitude: round(this.longitude + wander(), 6),
			speed: driving ? leg.kmh : round(this.rng.between(0, 1.5), 1),
			course: driving ? leg.course : 0,
			battery: 95,
			fuel: round(this.fuel, 1),
			temperature: 18,
			inactiveSeconds: 0,
			rpm: driving ? 900 + leg.kmh * 22 : running ? S.idleRpm : 0,
			milleage: round(this.milleage, 1),
			warningTexts: [],
			alertTexts: [],
			alerts: [],
			warnings: [],
			hasCriticalAlert: false,
			attributes: { ignition: running ? 'on' : 'off' },
			inputs: [running, false],
			outputs: [false],
		});
	}
}

function round(value: number, decimals: number): number {
	const factor = 10 ** decimals;
	return Math.round(value * factor) / factor;
}
