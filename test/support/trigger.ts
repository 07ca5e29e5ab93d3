/**
 * What the trigger's tests share: one factory for detection settings, one loop that polls a
 * device's detection in sequence (pure), and one harness that polls the node in n8n's PollContext
 * against a sandbox, with persistent static data and restarts.
 */
import { setTimeout as sleepMs } from 'node:timers/promises';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';
import { detectDeviceEvents } from '../../nodes/SatelliteTrackingTrigger/detection/deviceEvents';
import { DEFAULT_EXPIRING_WITHIN_DAYS } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/deviceExpiring';
import { DEFAULT_SILENT_AFTER_MINUTES } from '../../nodes/SatelliteTrackingTrigger/detection/detectors/deviceSilent';
import type {
	DayCounts,
	DetectionSettings,
	DeviceInfo,
	DeviceState,
	TriggerEvent,
} from '../../nodes/SatelliteTrackingTrigger/detection/types';
import type { Location } from '../../nodes/shared/wire';
import type { FixInput } from '../../sandbox/server';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import { Engine, TRIGGER_NODE_TYPE, registerNodeType } from './engine';

const TOKEN_ROUTE = 'POST /api/Auth/Token';

/** The node's defaults, Location Updated alone; a test states what it changes. */
export function detectionSettings(overrides: Partial<DetectionSettings> = {}): DetectionSettings {
	return {
		events: ['locationUpdated'],
		geofences: [],
		minDistanceMeters: 0,
		silentAfterMinutes: DEFAULT_SILENT_AFTER_MINUTES,
		expiringWithinDays: DEFAULT_EXPIRING_WITHIN_DAYS,
		alertFilter: [],
		emitCurrentState: false,
		...overrides,
	};
}

/** One poll of one device: what its read fetched, at which time. */
export interface DevicePoll {
	fixes: Location[];
	now: Date;
	/** The device as listed at this poll, when it differs from the one given to {@link pollDevice}. */
	device?: DeviceInfo;
	notifications?: DayCounts[];
}

/**
 * `value`, and everything it holds, frozen: detection must not change the state it is given
 * (readState hands it the stored state, not a copy), and a test that passes it a frozen one fails
 * with a TypeError where it would.
 */
export function frozen<T>(value: T): T {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		for (const inner of Object.values(value)) frozen(inner);
		Object.freeze(value);
	}
	return value;
}

/** Polls in sequence, carrying the state from one to the next; the first is a baseline unless `start` is given. */
export function pollDevice(
	device: DeviceInfo,
	polls: DevicePoll[],
	settings: DetectionSettings,
	start?: DeviceState,
): { events: TriggerEvent[][]; state: DeviceState } {
	let state = start;
	const events: TriggerEvent[][] = [];
	for (const poll of polls) {
		const result = detectDeviceEvents(frozen(state), poll.device ?? device, poll.fixes, settings, poll.now, poll.notifications);
		state = result.state;
		events.push(result.events);
	}
	return { events, state: state! };
}

/** The events of a poll's output, as the workflow receives them. */
export function eventsOf(output: INodeExecutionData[][] | null): TriggerEvent[] {
	return (output?.[0] ?? []).map((item) => item.json as unknown as TriggerEvent);
}

/** What n8n keeps of static data across a restart: a JSON copy. */
export const restartedFrom = (staticData: IDataObject): IDataObject => JSON.parse(JSON.stringify(staticData));

/** The trigger's state inside the static data the harness polls with. */
export const triggerState = (staticData: IDataObject) =>
	(staticData['node:Trigger'] as { state: { devices: Record<string, DeviceState> } & IDataObject }).state;

export interface TriggerHarness {
	sandbox: Sandbox;
	engine: Engine;
	/** Events of one poll, as the workflow would receive them. */
	/** Version 1 unless `typeVersion` says otherwise, as saved workflows of the trigger's first version run it. */
	poll(parameters: INodeParameters, staticData: IDataObject, mode?: 'trigger' | 'manual', typeVersion?: number): Promise<TriggerEvent[]>;
	/** The API requests (token calls aside) the last poll made. */
	lastPollRequests(): Array<{ route: string | null; deviceId?: string; body: unknown }>;
	/** A new node instance and engine, as after an n8n restart. */
	restart(): void;
}

/** A sandbox for one test, and the trigger polled against it through n8n's PollContext. */
export async function withTriggerSandbox(options: SandboxOptions, test: (harness: TriggerHarness) => Promise<void>): Promise<void> {
	const sandbox = await startSandbox({ port: 0, ...options });
	const engineFor = () => new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	let engine = engineFor();
	let logStart = 0;
	let logEnd = 0;
	const harness: TriggerHarness = {
		sandbox,
		get engine() {
			return engine;
		},
		async poll(parameters, staticData, mode = 'trigger', typeVersion = 1) {
			logStart = sandbox.requestLog.length;
			try {
				return eventsOf(await engine.poll(parameters, staticData, mode, TRIGGER_NODE_TYPE, typeVersion));
			} finally {
				logEnd = sandbox.requestLog.length;
			}
		},
		lastPollRequests: () =>
			sandbox.requestLog
				.slice(logStart, logEnd)
				.filter((entry) => entry.route !== TOKEN_ROUTE)
				.map((entry) => ({ route: entry.route, deviceId: entry.deviceId, body: entry.body })),
		restart() {
			registerNodeType(TRIGGER_NODE_TYPE, new SatelliteTrackingTrigger());
			engine = engineFor();
		},
	};
	try {
		await test(harness);
	} finally {
		await sandbox.close();
	}
}

/**
 * Until the sandbox has answered every request it received, a stalled one included: where n8n's next
 * poll would come, minutes after one cut short. Polled back to back, the next poll's budget also paid
 * for the cut one's leftovers: a suite's first failed request has jest map axios' stack through its
 * source map, 150 ms of CPU in one go, over a second on a loaded machine. The cut request times out (at
 * the deadline) before the sandbox answers it, so that work is done by then.
 */
export async function allAnswered(sandbox: Sandbox): Promise<void> {
	const answered = () => Object.values(sandbox.stats.statusCounts).reduce((sum, count) => sum + count, 0);
	while (answered() < sandbox.stats.requests) await sleepMs(10);
}

/** A device the scripted tests add, carrying the tag `scripted` they watch by (SCRIPTED_DEVICES), so seeded devices stay out of them. */
export function addScriptedDevice(sandbox: Sandbox, id: string, tags: Record<string, string> = {}): void {
	sandbox.store.addDevice({ id, name: `Scripted ${id}`, tags: { scripted: 'yes', ...tags }, expires: null });
}

/** The trigger's device selection that watches only the devices added by addScriptedDevice. */
export const SCRIPTED_DEVICES = { deviceSelection: 'tag', tagKey: 'scripted' };

export const eventsOfKind = (events: TriggerEvent[], kind: string) => events.filter((event) => event.event === kind);

/** A fix of a scripted device at `at` (epoch ms); `step`: where along a road, 1.1 km apart, so that the moves are drives, not impossible jumps. */
export function addFix(sandbox: Sandbox, id: string, at: number, step = 1, extra: Partial<FixInput> = {}): Location {
	return sandbox.store.addFix(id, { latitude: 10 + step / 100, longitude: 1, dateTime: new Date(at).toISOString(), ...extra });
}

/**
 * One scripted device `id` with a first fix dated `firstAt`, watched with `parameters` (the scripted
 * devices chosen), and the baseline poll made: `add` gives it its next fixes.
 */
export async function watchScriptedDevice(h: TriggerHarness, id: string, firstAt: number, parameters: INodeParameters) {
	addScriptedDevice(h.sandbox, id);
	const add = (at: number, step: number, extra: Partial<FixInput> = {}) => addFix(h.sandbox, id, at, step, extra);
	add(firstAt, 0);
	const watched = { ...parameters, ...SCRIPTED_DEVICES };
	const staticData: IDataObject = {};
	await h.poll(watched, staticData);
	return { add, parameters: watched, staticData };
}

/** The dates of the fixes a poll's Location Updated events report, in order. */
export const locationUpdates = (events: TriggerEvent[]) => events.filter((event) => event.event === 'locationUpdated').map((event) => (event.location as Location).dateTime);
