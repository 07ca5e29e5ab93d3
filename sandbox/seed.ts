/**
 * The sandbox's starting data. Device roles (expired, silent, never reported…) follow fixed index
 * rules so tests can name them; positions, names and numbers come from the seed.
 */
import type { Device, Group, User } from './vendorApi';
import { Rng, hashSeed } from './random';
import { storyDay, type StoryRole } from './stories';
import type { TelemetryRole } from './telemetry';
import type { GeoPoint } from './geoPoint';
import type { HistoryPlan } from './track';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

interface City extends GeoPoint {
	name: string;
}

const CITIES: Record<'north' | 'south', City[]> = {
	north: [
		{ name: 'London', latitude: 51.5072, longitude: -0.1276 },
		{ name: 'Berlin', latitude: 52.52, longitude: 13.405 },
		{ name: 'Stockholm', latitude: 59.3293, longitude: 18.0686 },
		{ name: 'Chicago', latitude: 41.8781, longitude: -87.6298 },
		{ name: 'Toronto', latitude: 43.6532, longitude: -79.3832 },
	],
	south: [
		{ name: 'Madrid', latitude: 40.4168, longitude: -3.7038 },
		{ name: 'Lima', latitude: -12.0464, longitude: -77.0428 },
		{ name: 'São Paulo', latitude: -23.5505, longitude: -46.6333 },
		{ name: 'Mexico City', latitude: 19.4326, longitude: -99.1332 },
		{ name: 'Santiago', latitude: -33.4489, longitude: -70.6693 },
	],
};

/** Where devices added by tests without a history start when moved. */
export const DEFAULT_HOME: GeoPoint = CITIES.north[0];

/** Devices past this index get short histories, so 5000-device benches stay light. */
const FULL_HISTORY_DEVICES = 50;
const FULL_HISTORY_FIXES = 288;
const SHORT_HISTORY_FIXES = 24;
const FIX_INTERVAL_MINUTES = 5;

export interface SeededDevice {
	device: Device;
	home: GeoPoint;
	/** Absent for the device that never reported. */
	historyPlan?: HistoryPlan;
}

/** Which seeded devices play which part; lists cover the devices actually seeded. */
export interface SeedFacts {
	neverReportedDeviceId: string | null;
	expiredDeviceIds: string[];
	expiringSoonDeviceIds: string[];
	noExpiryDeviceIds: string[];
	/** Last fix 2–6 hours before startup. */
	silentDeviceIds: string[];
	/** A critical alert (SOS) 30 minutes before the device's newest fix. */
	criticalAlertDeviceIds: string[];
	withoutPhoneNumberDeviceIds: string[];
	/** Devices whose telemetry tells a story (telemetry.ts), by role; reefers are tagged `cargo: chilled`. */
	telemetryDeviceIds: Record<TelemetryRole, string[]>;
	/** Devices whose whole day is a script (stories.ts), by role, and the UTC day it plays. */
	storyDeviceIds: Record<StoryRole, string[]>;
	storyDay: string;
}

export const NEVER_REPORTED_INDEX = 10;

export function deviceId(index: number): string {
	return `device${String(index).padStart(3, '0')}`;
}

const isExpired = (index: number) => index % 8 === 4;
const isExpiringSoon = (index: number) => index % 8 === 6;
const hasNoExpiry = (index: number) => index % 8 === 0;
const isSilent = (index: number) => index % 6 === 5;
const hasCriticalAlert = (index: number) => index % 7 === 3 && index !== NEVER_REPORTED_INDEX;
const hasNoPhoneNumber = (index: number) => index % 9 === 0;
const TELEMETRY_ROLES: Partial<Record<number, TelemetryRole>> = {
	1: 'batteryDrain',
	2: 'reefer',
	3: 'doorSensor',
	7: 'reeferFailed',
	8: 'fuelTheft',
};
/** Past the indices the trigger's tests seed (up to 12), clear of the telemetry roles and the silent devices. */
const STORY_ROLES: Partial<Record<number, StoryRole>> = {
	15: 'deliveryRound',
	16: 'depotIdling',
	19: 'serviceDue',
};
const telemetryRole = (index: number): TelemetryRole | undefined => TELEMETRY_ROLES[index % 10];
const isReefer = (index: number) => telemetryRole(index)?.startsWith('reefer') === true;

export function seedDevices(count: number, seed: number, now: number): SeededDevice[] {
	const seeded: SeededDevice[] = [];
	for (let index = 1; index <= count; index++) seeded.push(seedDevice(index, seed, now));
	return seeded;
}

function seedDevice(index: number, seed: number, now: number): SeededDevice {
	const rng = new Rng(hashSeed(seed, 'device', index));
	const fleet = index % 2 === 1 ? 'north' : 'south';
	const type = index % 3 === 0 ? 'van' : 'truck';
	const home = rng.pick(CITIES[fleet]);
	const typeName = type === 'van' ? 'Van' : 'Truck';
	const device: Device = {
		id: deviceId(index),
		name: `${typeName} ${String(index).padStart(2, '0')}`,
		description: `${typeName} of the ${fleet} fleet, based in ${home.name}`,
		min: hasNoPhoneNumber(index) ? null : `+1555${String(index).padStart(7, '0')}`,
		tags: isReefer(index) ? { fleet, type, cargo: 'chilled' } : { fleet, type },
		expires: seedExpiry(index, now),
	};
	if (index === NEVER_REPORTED_INDEX) return { device, home };
	const historyPlan: HistoryPlan = {
		home,
		rng: new Rng(hashSeed(seed, 'history', index)),
		newestAt: now - (isSilent(index) ? rng.between(2, 6) * HOUR_MS : rng.between(30_000, 4 * 60_000)),
		count: index <= FULL_HISTORY_DEVICES ? FULL_HISTORY_FIXES : SHORT_HISTORY_FIXES,
		intervalMinutes: FIX_INTERVAL_MINUTES,
		criticalAlertFromNewest: hasCriticalAlert(index) ? 30 / FIX_INTERVAL_MINUTES : undefined,
	};
	const role = telemetryRole(index);
	if (role) historyPlan.telemetry = { role, anchor: now };
	const story = STORY_ROLES[index];
	if (story) historyPlan.story = { role: story, anchor: now };
	return { device, home, historyPlan };
}

function seedExpiry(index: number, now: number): string | null {
	if (hasNoExpiry(index)) return null;
	if (isExpired(index)) return new Date(now - (5 + (index % 30)) * DAY_MS).toISOString();
	if (isExpiringSoon(index)) return new Date(now + (2 + (index % 20)) * DAY_MS).toISOString();
	return new Date(now + (180 + index) * DAY_MS).toISOString();
}

export function seedFacts(count: number, now: number): SeedFacts {
	const ids = (rule: (index: number) => boolean) =>
		Array.from({ length: count }, (_, i) => i + 1)
			.filter(rule)
			.map(deviceId);
	return {
		neverReportedDeviceId: count >= NEVER_REPORTED_INDEX ? deviceId(NEVER_REPORTED_INDEX) : null,
		expiredDeviceIds: ids(isExpired),
		expiringSoonDeviceIds: ids(isExpiringSoon),
		noExpiryDeviceIds: ids(hasNoExpiry),
		silentDeviceIds: ids((index) => isSilent(index) && index !== NEVER_REPORTED_INDEX),
		criticalAlertDeviceIds: ids(hasCriticalAlert),
		withoutPhoneNumberDeviceIds: ids(hasNoPhoneNumber),
		telemetryDeviceIds: Object.fromEntries(
			Object.values(TELEMETRY_ROLES).map((role) => [role, ids((index) => index !== NEVER_REPORTED_INDEX && telemetryRole(index) === role)]),
		) as Record<TelemetryRole, string[]>,
		storyDeviceIds: Object.fromEntries(
			Object.entries(STORY_ROLES).map(([index, role]) => [role, Number(index) <= count ? [deviceId(Number(index))] : []]),
		) as Record<StoryRole, string[]>,
		storyDay: storyDay(now),
	};
}

/** Group device lists stop here so a 5000-device seed does not make 2500-entry groups. */
const MAX_SEEDED_GROUP_DEVICES = 50;

export function seedGroups(devices: Device[], now: number): Group[] {
	const having = (tag: string, value: string) =>
		devices
			.filter((device) => device.tags?.[tag] === value)
			.slice(0, MAX_SEEDED_GROUP_DEVICES)
			.map((device) => device.id);
	const definitions: Array<[string, string | null, string[]]> = [
		['North fleet', 'Every device of the north fleet', having('fleet', 'north')],
		['South fleet', 'Every device of the south fleet', having('fleet', 'south')],
		['Trucks', 'Heavy vehicles', having('type', 'truck')],
		['Vans', 'Delivery vans', having('type', 'van')],
		['Night shift', null, []],
	];
	return definitions.map(([name, description, deviceIds], i) => {
		const created = new Date(now - (30 - i) * DAY_MS).toISOString();
		return {
			id: `grp-${i + 1}`,
			name,
			description,
			devices: deviceIds,
			creation: created,
			lastModified: created,
		};
	});
}

const FIRST_NAMES = ['Ana', 'Ben', 'Carla', 'David', 'Elena', 'Farid', 'Grace', 'Hugo', 'Irene', 'Jonas', 'Kemi', 'Luis', 'Maya', 'Nils', 'Olga', 'Pedro', 'Quinn', 'Rosa', 'Sven', 'Tara'];
const LAST_NAMES = ['Garcia', 'Smith', 'Müller', 'Rossi', 'Silva', 'Khan', 'Novak', 'Dubois', 'Tanaka', 'Okafor', 'Larsen', 'Quispe', 'Moreau', 'Kowalski', 'Nguyen'];
/** As the vendor's user examples hold them: a country as a code, a name ("Colombia") or "USA". */
const PLACES: Array<[country: string, timeZone: string]> = [
	['USA', 'America/New_York'],
	['US', 'America/Chicago'],
	['GB', 'Europe/London'],
	['DE', 'Europe/Berlin'],
	['ES', 'Europe/Madrid'],
	['PE', 'America/Lima'],
	['MX', 'America/Mexico_City'],
	['BR', 'America/Sao_Paulo'],
	['Colombia', 'America/Bogota'],
	['CL', 'America/Santiago'],
	['United Kingdom', 'Europe/London'],
	['CA', 'America/Toronto'],
];
const DEPARTMENTS = ['operations', 'dispatch', 'maintenance', 'sales', 'management'];
/** The verbs of the vendor's user examples. */
const PRIVILEGES = ['read', 'write', 'execute'];
/** The vendor's user examples name a group ("Admins", "Marketing"), not its id. */
const GROUP_NAMES = ['Admins', 'Marketing', 'Dispatch', 'Drivers', 'Workshop'];

export function seedUsers(count: number, seed: number, deviceCount: number, now: number): User[] {
	const users: User[] = [];
	for (let index = 1; index <= count; index++) users.push(seedUser(index, seed, deviceCount, now));
	return users;
}

function seedUser(index: number, seed: number, deviceCount: number, now: number): User {
	const rng = new Rng(hashSeed(seed, 'user', index));
	const first = rng.pick(FIRST_NAMES);
	const last = rng.pick(LAST_NAMES);
	const [country, timeZone] = rng.pick(PLACES);
	const creation = now - rng.between(30, 900) * DAY_MS;
	const disabled = index % 7 === 0;
	return {
		id: `usr-${index}`,
		name: `${first} ${last}`,
		email: `${asciiLower(first)}.${asciiLower(last)}${index}@example.com`,
		country,
		timeZone,
		description: `${rng.pick(DEPARTMENTS)} staff`,
		message: index % 3 === 0 ? 'Welcome to the fleet portal.' : null,
		disabled,
		disabledMessage: disabled ? 'Account suspended by an administrator.' : null,
		tags: { department: rng.pick(DEPARTMENTS) },
		privileges: PRIVILEGES.filter(() => rng.chance(0.5)),
		group: index % 4 === 0 ? GROUP_NAMES[index % GROUP_NAMES.length] : null,
		deviceId: index % 5 === 0 && deviceCount > 0 ? deviceId(1 + (index % deviceCount)) : null,
		adminDevices: rng.int(0, 10),
		from: new Date(creation).toISOString(),
		expires: index % 6 === 0 ? new Date(creation + 730 * DAY_MS).toISOString() : null,
		password: null,
		creation: new Date(creation).toISOString(),
		modification: new Date(creation + rng.between(0, 20) * DAY_MS).toISOString(),
		lastLogin: index % 4 === 1 ? null : new Date(now - rng.between(0, 20) * DAY_MS).toISOString(),
	};
}

function asciiLower(name: string): string {
	return name
		.normalize('NFD')
		.replace(/[^A-Za-z]/g, '')
		.toLowerCase();
}
