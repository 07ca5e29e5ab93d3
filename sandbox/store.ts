/**
 * The sandbox's in-memory data: devices with their location and alert histories, groups, users and
 * the commands sent. Histories of seeded devices are generated on first use, which keeps startup fast
 * for 5000-device seeds. Reads hand out copies so a test cannot change the data by accident.
 */
import type { Alert, Device, Group, GroupWrite, Location, User, UserWrite } from './vendorApi';
import { Rng, hashSeed } from './random';
import { DEFAULT_HOME, seedDevices, seedFacts, seedGroups, seedUsers, type SeedFacts } from './seed';
import { TimeSeries } from './timeSeries';
import type { GeoPoint } from './geoPoint';
import { Walker, generateHistory, type HistoryPlan } from './track';

export interface StoreOptions {
	seed: number;
	deviceCount: number;
	userCount: number;
	/** Milliseconds since the epoch; the sandbox's clock. */
	now: () => number;
}

/** A fix to store; `dateTime` defaults to now. */
export type FixInput = Partial<Location> & Pick<Location, 'latitude' | 'longitude'>;

/** An alert to store; `dateTime` defaults to now, the position to the device's newest fix. */
export type AlertInput = Partial<Alert>;

export interface SentCommand {
	deviceId: string;
	command: string;
	format: string | null;
	sms: boolean | null;
	at: string;
}

export interface MoveRequest {
	minutes: number;
	/** Default: every device that has reported. */
	deviceIds?: string[];
}

interface DeviceRecord {
	device: Device;
	home: GeoPoint;
	historyPlan?: HistoryPlan;
	history?: { locations: TimeSeries<Location>; alerts: TimeSeries<Alert> };
}

const MOVE_STEP_MINUTES = 5;
/** One request may add at most a week of fixes (2,016 per device): `{"minutes": 1e9}` ran the process out of memory. */
const MAX_MOVE_MINUTES = 7 * 24 * 60;
/** A week for every default device fits (24 × 2,016); a week for a 5,000-device seed (10 million fixes) does not. */
const MAX_MOVE_FIXES = 100_000;

export class SandboxStore {
	readonly facts: SeedFacts;
	readonly commands: SentCommand[] = [];
	private readonly devices = new Map<string, DeviceRecord>();
	private readonly groups = new Map<string, Group>();
	private readonly users = new Map<string, User>();
	private readonly userIdByEmail = new Map<string, string>();
	private lastGroupNumber = 0;
	private lastUserNumber = 0;

	constructor(private readonly options: StoreOptions) {
		const startedAt = options.now();
		for (const seeded of seedDevices(options.deviceCount, options.seed, startedAt)) {
			this.devices.set(seeded.device.id, { ...seeded });
		}
		for (const group of seedGroups(this.listDevices(), startedAt)) this.groups.set(group.id, group);
		this.lastGroupNumber = this.groups.size;
		for (const user of seedUsers(options.userCount, options.seed, options.deviceCount, startedAt)) {
			this.storeUser(user);
		}
		this.lastUserNumber = this.users.size;
		this.facts = seedFacts(options.deviceCount, startedAt);
	}

	// --- devices -------------------------------------------------------------------------------

	listDevices(): Device[] {
		return [...this.devices.values()].map((record) => copyDevice(record.device));
	}

	getDevice(id: string): Device | undefined {
		const record = this.devices.get(id);
		return record && copyDevice(record.device);
	}

	hasDevice(id: string): boolean {
		return this.devices.has(id);
	}

	/** Any id is accepted, so tests can add ids like `a/b?x` to check path encoding. */
	addDevice(device: Device, home: GeoPoint = DEFAULT_HOME): Device {
		if (this.devices.has(device.id)) throw new Error(`Device ${device.id} already exists.`);
		this.devices.set(device.id, { device: copyDevice(device), home });
		return copyDevice(device);
	}

	removeDevice(id: string): boolean {
		return this.devices.delete(id);
	}

	locations(deviceId: string): Location[] | undefined {
		return this.historyOf(deviceId)?.locations.all();
	}

	/** `null` when the device never reported; `undefined` when there is no such device. */
	lastLocation(deviceId: string): Location | null | undefined {
		const history = this.historyOf(deviceId);
		if (!history) return undefined;
		return history.locations.newest() ?? null;
	}

	locationsBetween(deviceId: string, from: number, to: number): Location[] | undefined {
		return this.historyOf(deviceId)?.locations.between(from, to);
	}

	addFix(deviceId: string, fix: FixInput): Location {
		const history = this.requireHistory(deviceId);
		const location: Location = { ...fix, dateTime: fix.dateTime ?? this.nowIso() };
		history.locations.insert(location);
		return location;
	}

	alerts(deviceId: string): Alert[] | undefined {
		return this.historyOf(deviceId)?.alerts.all();
	}

	alertsBetween(deviceId: string, from: number, to: number): Alert[] | undefined {
		return this.historyOf(deviceId)?.alerts.between(from, to);
	}

	addAlert(deviceId: string, input: AlertInput): Alert {
		const history = this.requireHistory(deviceId);
		const near = history.locations.newest() ?? { latitude: 0, longitude: 0 };
		const alert: Alert = {
			dateTime: input.dateTime ?? this.nowIso(),
			latitude: input.latitude ?? near.latitude,
			longitude: input.longitude ?? near.longitude,
			text: input.text ?? input.alerts?.[0] ?? 'Alert',
			notifications: input.notifications ?? [],
			alerts: input.alerts ?? [],
		};
		history.alerts.insert(alert);
		return alert;
	}

	recordCommand(command: SentCommand): void {
		this.commands.push(command);
	}

	/**
	 * Appends a fix every 5 simulated minutes per device. A fix is never dated after now: when the
	 * simulated span would reach past now, the new fixes are spread evenly between the newest fix and now.
	 */
	moveDevices(request: MoveRequest): Record<string, Location[]> {
		if (!(typeof request?.minutes === 'number' && request.minutes > 0 && request.minutes <= MAX_MOVE_MINUTES)) {
			throw new Error(`moveDevices needs minutes: a number above 0 and at most ${MAX_MOVE_MINUTES} (one week).`);
		}
		if (request.deviceIds !== undefined && !(Array.isArray(request.deviceIds) && request.deviceIds.every((id) => typeof id === 'string'))) {
			throw new Error('moveDevices takes deviceIds as an array of device ids.');
		}
		const ids = [...new Set(request.deviceIds ?? [...this.devices.keys()].filter((id) => this.lastLocation(id)))];
		const fixes = ids.length * moveSteps(request.minutes);
		if (fixes > MAX_MOVE_FIXES) {
			throw new Error(
				`moveDevices adds at most ${MAX_MOVE_FIXES} fixes per request (one every ${MOVE_STEP_MINUTES} minutes per device); ${ids.length} devices over ${request.minutes} minutes would add ${fixes}. Move fewer devices or fewer minutes at a time.`,
			);
		}
		const moved: Record<string, Location[]> = {};
		for (const id of ids) moved[id] = this.moveDevice(id, request.minutes);
		return moved;
	}

	private moveDevice(deviceId: string, minutes: number): Location[] {
		const record = this.requireRecord(deviceId);
		const history = this.requireHistory(deviceId);
		const now = this.options.now();
		const steps = moveSteps(minutes);
		const stepMinutes = minutes / steps;
		const newest = history.locations.newest();
		const rng = new Rng(hashSeed(this.options.seed, 'move', deviceId, history.locations.size));
		const telemetry = record.historyPlan?.telemetry;
		const walker = newest ? Walker.continuing(record.home, newest, rng, telemetry) : Walker.startingAt(record.home, rng, telemetry);
		const startAt = newest ? Date.parse(newest.dateTime) : now - minutes * 60_000;
		const dates = moveDates(startAt, now, steps, stepMinutes);
		// When the minutes asked do not fit before now, the fixes are squeezed in: the device drives only
		// as far as that time allows, so the track stays one a vehicle could make (a trigger drops fixes
		// implying an impossible speed as GPS glitches).
		let previous = startAt;
		return dates.map((at) => {
			const drivenMinutes = Math.min(stepMinutes, (at.getTime() - previous) / 60_000);
			previous = at.getTime();
			const step = walker.step(drivenMinutes, at, { keepMoving: true });
			history.locations.insert(step.location);
			if (step.alert) history.alerts.insert(step.alert);
			return step.location;
		});
	}

	private historyOf(deviceId: string): DeviceRecord['history'] {
		const record = this.devices.get(deviceId);
		if (!record) return undefined;
		if (!record.history) {
			const generated = record.historyPlan ? generateHistory(record.historyPlan) : { locations: [], alerts: [] };
			record.history = {
				locations: new TimeSeries(generated.locations),
				alerts: new TimeSeries(generated.alerts),
			};
		}
		return record.history;
	}

	private requireRecord(deviceId: string): DeviceRecord {
		const record = this.devices.get(deviceId);
		if (!record) throw new Error(`No device ${deviceId}.`);
		return record;
	}

	private requireHistory(deviceId: string): NonNullable<DeviceRecord['history']> {
		this.requireRecord(deviceId);
		return this.historyOf(deviceId)!;
	}

	// --- groups --------------------------------------------------------------------------------

	listGroups(): Group[] {
		return [...this.groups.values()].map(copyGroup);
	}

	getGroup(id: string): Group | undefined {
		const group = this.groups.get(id);
		return group && copyGroup(group);
	}

	createGroup(write: GroupWrite): Group {
		const now = this.nowIso();
		const group: Group = { id: `grp-${++this.lastGroupNumber}`, ...groupFields(write), creation: now, lastModified: now };
		this.groups.set(group.id, group);
		return copyGroup(group);
	}

	replaceGroup(id: string, write: GroupWrite): Group | undefined {
		const existing = this.groups.get(id);
		if (!existing) return undefined;
		const group: Group = { id, ...groupFields(write), creation: existing.creation, lastModified: this.nowIso() };
		this.groups.set(id, group);
		return copyGroup(group);
	}

	deleteGroup(id: string): boolean {
		return this.groups.delete(id);
	}

	// --- users ---------------------------------------------------------------------------------

	listUsers(): User[] {
		return [...this.users.values()].map(publicUser);
	}

	getUser(id: string): User | undefined {
		const user = this.users.get(id);
		return user && publicUser(user);
	}

	/** The stored password, which the API never reads back; for tests that check what was written. */
	passwordOf(id: string): string | null | undefined {
		return this.users.get(id)?.password;
	}

	userIdWithEmail(email: string): string | undefined {
		return this.userIdByEmail.get(email.toLowerCase());
	}

	createUser(write: UserWrite): User {
		const now = this.nowIso();
		const user: User = {
			id: `usr-${++this.lastUserNumber}`,
			...userFields(write, null),
			creation: now,
			modification: now,
			lastLogin: null,
		};
		this.storeUser(user);
		return publicUser(user);
	}

	/** A full replacement, except that an absent password keeps the old one: clients cannot read it back. */
	replaceUser(id: string, write: UserWrite): User | undefined {
		const existing = this.users.get(id);
		if (!existing) return undefined;
		this.userIdByEmail.delete(existing.email.toLowerCase());
		const user: User = {
			id,
			...userFields(write, existing.password ?? null),
			creation: existing.creation,
			modification: this.nowIso(),
			lastLogin: existing.lastLogin,
		};
		this.storeUser(user);
		return publicUser(user);
	}

	deleteUser(id: string): boolean {
		const existing = this.users.get(id);
		if (!existing) return false;
		this.userIdByEmail.delete(existing.email.toLowerCase());
		return this.users.delete(id);
	}

	private storeUser(user: User): void {
		this.users.set(user.id, user);
		this.userIdByEmail.set(user.email.toLowerCase(), user.id);
	}

	private nowIso(): string {
		return new Date(this.options.now()).toISOString();
	}
}

function moveSteps(minutes: number): number {
	return Math.max(1, Math.round(minutes / MOVE_STEP_MINUTES));
}

function moveDates(startAt: number, now: number, steps: number, stepMinutes: number): Date[] {
	const stepMs = stepMinutes * 60_000;
	const fitsBeforeNow = startAt + steps * stepMs <= now;
	const squeezedStepMs = Math.max(1, (now - startAt) / steps);
	return Array.from({ length: steps }, (_, i) => {
		const offset = (i + 1) * (fitsBeforeNow ? stepMs : squeezedStepMs);
		return new Date(Math.round(startAt + offset));
	});
}

function groupFields(write: GroupWrite): Pick<Group, 'name' | 'description' | 'devices'> {
	return { name: write.name, description: write.description ?? null, devices: [...(write.devices ?? [])] };
}

function userFields(write: UserWrite, keptPassword: string | null): Omit<User, 'id' | 'creation' | 'modification' | 'lastLogin'> {
	return {
		name: write.name,
		email: write.email,
		country: write.country,
		timeZone: write.timeZone,
		description: write.description ?? null,
		message: write.message ?? null,
		disabled: write.disabled ?? false,
		disabledMessage: write.disabledMessage ?? null,
		tags: { ...(write.tags ?? {}) },
		privileges: [...(write.privileges ?? [])],
		group: write.group ?? null,
		deviceId: write.deviceId ?? null,
		adminDevices: write.adminDevices ?? 0,
		from: write.from ?? null,
		expires: write.expires ?? null,
		password: write.password ?? keptPassword,
	};
}

function copyDevice(device: Device): Device {
	return { ...device, tags: { ...(device.tags ?? {}) } };
}

function copyGroup(group: Group): Group {
	return { ...group, devices: [...(group.devices ?? [])] };
}

function publicUser(user: User): User {
	return { ...user, tags: { ...(user.tags ?? {}) }, privileges: [...(user.privileges ?? [])], password: null };
}
