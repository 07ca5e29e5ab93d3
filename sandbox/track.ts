/**
 * Simulated movement: a device drives around its home city, stops now and then, drains and charges
 * its battery and raises an occasional alert. Everything is drawn from a seeded Rng so a history can
 * be rebuilt identically on demand (histories are generated lazily, see store.ts).
 */
import { NOTIFICATION_CHANNELS, type Alert, type Location, type VENDOR_ALERT_NAMES } from './vendorApi';
import type { GeoPoint } from './geoPoint';
import { Rng } from './random';
import { storyHistory, type Story } from './stories';
import { readTelemetry, type Telemetry, type TelemetryReading } from './telemetry';

interface WalkerState extends GeoPoint {
	speed: number;
	course: number;
	battery: number;
	fuel: number;
	temperature: number;
	milleage: number;
	inactiveSeconds: number;
}

interface AlertKind {
	/** One of the alert names the vendor's alerts page lists. */
	name: (typeof VENDOR_ALERT_NAMES)[number];
	critical: boolean;
	probability: number;
	applies: (state: WalkerState) => boolean;
	text: (state: WalkerState) => string;
}

const ALERT_KINDS: AlertKind[] = [
	{
		name: 'SpeedLimit',
		critical: false,
		probability: 0.3,
		applies: (s) => s.speed > 85,
		text: (s) => `Speed limit exceeded: ${Math.round(s.speed)} km/h`,
	},
	{
		name: 'LowBattery',
		critical: false,
		probability: 0.05,
		applies: (s) => s.battery < 25,
		text: (s) => `Low battery: ${Math.round(s.battery)}%`,
	},
	{
		name: 'HarshBraking',
		critical: false,
		probability: 0.01,
		applies: (s) => s.speed > 0,
		text: () => 'Harsh braking detected',
	},
	{ name: 'SOSButton', critical: true, probability: 0.002, applies: () => true, text: () => 'SOS button pressed' },
	{
		name: 'GPSUnplugged',
		critical: true,
		probability: 0.001,
		applies: () => true,
		text: () => 'External power disconnected',
	},
];

export const CRITICAL_ALERT_NAMES = ALERT_KINDS.filter((kind) => kind.critical).map((kind) => kind.name);

const NOTIFICATION_SETS: string[][] = [
	[NOTIFICATION_CHANNELS.email],
	[NOTIFICATION_CHANNELS.sms],
	[NOTIFICATION_CHANNELS.email, NOTIFICATION_CHANNELS.sms],
];

const WEAK_GPS = 'GPS signal weak';
const KM_PER_DEGREE_LATITUDE = 110.574;
const KM_PER_DEGREE_LONGITUDE_AT_EQUATOR = 111.32;
const HOME_RADIUS_DEGREES = 0.2;

export interface Step {
	location: Location;
	alert?: Alert;
}

export interface StepOptions {
	keepMoving?: boolean;
	forceAlert?: AlertKind['name'];
}

export class Walker {
	private doorOpen = false;

	private constructor(
		private readonly home: GeoPoint,
		private readonly state: WalkerState,
		private readonly rng: Rng,
		private readonly telemetry?: Telemetry,
	) {}

	static startingAt(home: GeoPoint, rng: Rng, telemetry?: Telemetry): Walker {
		return new Walker(
			home,
			{
				latitude: home.latitude + rng.between(-0.05, 0.05),
				longitude: home.longitude + rng.between(-0.05, 0.05),
				speed: 0,
				course: rng.int(0, 359),
				battery: rng.between(55, 100),
				fuel: rng.between(30, 100),
				temperature: rng.between(12, 28),
				milleage: rng.between(10_000, 200_000),
				inactiveSeconds: 0,
			},
			rng,
			telemetry,
		);
	}

	/** Continues from a device's newest fix, so moved devices pick up where they were. */
	static continuing(home: GeoPoint, last: Location, rng: Rng, telemetry?: Telemetry): Walker {
		return new Walker(
			home,
			{
				latitude: last.latitude,
				longitude: last.longitude,
				speed: last.speed ?? 0,
				course: last.course ?? rng.int(0, 359),
				battery: last.battery ?? 80,
				fuel: last.fuel ?? 60,
				temperature: last.temperature ?? 20,
				milleage: last.milleage ?? 0,
				inactiveSeconds: last.inactiveSeconds ?? 0,
			},
			rng,
			telemetry,
		);
	}

	step(minutes: number, at: Date, options: StepOptions = {}): Step {
		const reading = this.telemetry && readTelemetry(this.telemetry, at.getTime(), minutes, this.rng);
		this.changeSpeed(options.keepMoving ?? false);
		if (reading?.parked) this.state.speed = 0;
		this.drive(minutes);
		this.updateGauges(minutes);
		if (reading) this.tellStory(reading);
		const kind = this.drawAlert(options.forceAlert);
		const warning = this.rng.chance(0.01) ? [WEAK_GPS] : [];
		const location = this.toLocation(at, kind, warning);
		return kind ? { location, alert: this.toAlert(location, kind) } : { location };
	}

	private changeSpeed(keepMoving: boolean): void {
		const s = this.state;
		const moving = s.speed > 0;
		if (!moving && (keepMoving || this.rng.chance(0.15))) {
			s.speed = this.rng.between(20, 50);
		} else if (moving && !keepMoving && this.rng.chance(0.08)) {
			s.speed = 0;
		} else if (moving) {
			s.speed = clamp(s.speed + this.rng.between(-15, 15), keepMoving ? 20 : 5, 110);
		}
	}

	private drive(minutes: number): void {
		const s = this.state;
		if (s.speed === 0) {
			s.inactiveSeconds += minutes * 60;
			return;
		}
		s.inactiveSeconds = 0;
		s.course = this.nextCourse();
		const km = (s.speed * minutes) / 60;
		const radians = (s.course * Math.PI) / 180;
		s.latitude = clamp(s.latitude + (km * Math.cos(radians)) / KM_PER_DEGREE_LATITUDE, -89.9, 89.9);
		const kmPerDegreeLongitude = KM_PER_DEGREE_LONGITUDE_AT_EQUATOR * Math.cos((s.latitude * Math.PI) / 180);
		s.longitude = wrapLongitude(s.longitude + (km * Math.sin(radians)) / kmPerDegreeLongitude);
		s.milleage += km;
	}

	/** Wanders, but turns back towards home once it strays, so tracks stay around their city. */
	private nextCourse(): number {
		const s = this.state;
		const north = this.home.latitude - s.latitude;
		const east = this.home.longitude - s.longitude;
		if (Math.hypot(north, east) > HOME_RADIUS_DEGREES) {
			const towardsHome = (Math.atan2(east, north) * 180) / Math.PI;
			return normalizeCourse(towardsHome + this.rng.between(-20, 20));
		}
		return normalizeCourse(s.course + this.rng.between(-30, 30));
	}

	private updateGauges(minutes: number): void {
		const s = this.state;
		const moving = s.speed > 0;
		s.battery = clamp(s.battery + (moving ? 0.1 : -0.06) * minutes, 3, 100);
		s.fuel = moving ? s.fuel - 0.04 * minutes : s.fuel;
		if (s.fuel < 8) s.fuel = 100;
		s.temperature = clamp(s.temperature + this.rng.between(-0.4, 0.4), -20, 45);
	}

	/** A story's telemetry (see telemetry.ts) over the walker's own. */
	private tellStory(reading: TelemetryReading): void {
		const s = this.state;
		if (reading.temperature !== undefined) s.temperature = reading.temperature;
		if (reading.battery !== undefined) s.battery = reading.battery;
		if (reading.fuelLost) s.fuel = Math.max(0, s.fuel - reading.fuelLost);
		if (reading.doorOpen !== undefined) this.doorOpen = reading.doorOpen;
	}

	private drawAlert(forced: string | undefined): AlertKind | undefined {
		if (forced) return ALERT_KINDS.find((kind) => kind.name === forced);
		return ALERT_KINDS.find((kind) => kind.applies(this.state) && this.rng.chance(kind.probability));
	}

	private toLocation(at: Date, kind: AlertKind | undefined, warnings: string[]): Location {
		const s = this.state;
		const ignition = s.speed > 0;
		return {
			dateTime: at.toISOString(),
			latitude: round(s.latitude, 6),
			longitude: round(s.longitude, 6),
			speed: round(s.speed, 1),
			course: Math.round(s.course),
			battery: Math.round(s.battery),
			fuel: round(s.fuel, 1),
			fuel2: 0,
			temperature: round(s.temperature, 1),
			temperature2: 0,
			sensorTime1: 0,
			sensorTime2: 0,
			sensorTime3: 0,
			sensorTime4: 0,
			inactiveSeconds: Math.round(s.inactiveSeconds),
			rpm: ignition ? Math.round(900 + s.speed * 22) : 0,
			milleage: round(s.milleage, 1),
			warningTexts: warnings,
			alertTexts: kind ? [kind.text(s)] : [],
			alerts: kind ? [kind.name] : [],
			warnings,
			hasCriticalAlert: kind?.critical ?? false,
			attributes: { ignition: ignition ? 'on' : 'off', satellites: String(this.rng.int(5, 14)) },
			accessoriesAttributes: [],
			inputs: [ignition, this.doorOpen],
			outputs: [false],
		};
	}

	private toAlert(location: Location, kind: AlertKind): Alert {
		return {
			dateTime: location.dateTime,
			latitude: location.latitude,
			longitude: location.longitude,
			text: kind.text(this.state),
			notifications: [...this.rng.pick(NOTIFICATION_SETS)],
			alerts: [kind.name],
		};
	}
}

export interface History {
	locations: Location[];
	alerts: Alert[];
}

export interface HistoryPlan {
	home: GeoPoint;
	rng: Rng;
	newestAt: number;
	count: number;
	intervalMinutes: number;
	/** Index (from the newest fix backwards) that carries a critical alert, for trigger tests. */
	criticalAlertFromNewest?: number;
	/** The story the device's telemetry tells, if it plays one. */
	telemetry?: Telemetry;
	/** A scripted day instead of the walker's track (stories.ts). */
	story?: Story;
}

export function generateHistory(plan: HistoryPlan): History {
	if (plan.story) return { locations: storyHistory(plan.story, plan.home, plan.newestAt, plan.rng), alerts: [] };
	const walker = Walker.startingAt(plan.home, plan.rng, plan.telemetry);
	const history: History = { locations: [], alerts: [] };
	for (let index = 0; index < plan.count; index++) {
		const fromNewest = plan.count - 1 - index;
		const at = new Date(plan.newestAt - fromNewest * plan.intervalMinutes * 60_000);
		const forceAlert = fromNewest === plan.criticalAlertFromNewest ? CRITICAL_ALERT_NAMES[0] : undefined;
		const step = walker.step(plan.intervalMinutes, at, { forceAlert });
		history.locations.push(step.location);
		if (step.alert) history.alerts.push(step.alert);
	}
	return history;
}

function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}

function round(value: number, decimals: number): number {
	const factor = 10 ** decimals;
	return Math.round(value * factor) / factor;
}

function normalizeCourse(degrees: number): number {
	return ((degrees % 360) + 360) % 360;
}

function wrapLongitude(longitude: number): number {
	return ((((longitude + 180) % 360) + 360) % 360) - 180;
}
