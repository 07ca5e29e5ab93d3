import { deviceEvent, type Detector, type Observation } from '../detector';
import { fixTime, MINUTE_MS } from '../fixes';
import type { DeviceState, EventKind, TriggerEvent } from '../types';
import { parseServiceTime, toPositive } from '../../../shared/validation';

export const DEFAULT_SILENT_AFTER_MINUTES = 60;

declare module '../types' {
	interface DetectionSettings {
		silentAfterMinutes: number;
	}
	interface DeviceState {
		/** deviceSilent and deviceBackOnline: the device was silent at the last poll (one slice, so the two always pair). */
		silent?: boolean;
		/** deviceSilent: the poll that fetched the newest fix when that fix was already dated more than Silent After back (a clock behind). */
		heard?: string;
	}
	interface EventOutput {
		deviceSilent: { silentForMinutes: number };
		deviceBackOnline: { silentForMinutes: number };
	}
}

/**
 * A device whose newest fix is older than the silence threshold: reported once per silence, and
 * again only after it has sent a fix and fallen silent anew. A device that never reported has no
 * silence to measure. Its pair, deviceBackOnline, is the first fix after a silence was recorded:
 * both read and write the one `silent` slice, so every silence reported ends in one back-online.
 */
export const deviceSilent: Detector = {
	properties: [
		{
			displayName: 'Silent After (Minutes)',
			name: 'silentAfterMinutes',
			type: 'number',
			default: DEFAULT_SILENT_AFTER_MINUTES,
			typeOptions: { minValue: 1 },
			description: 'Report a device that has sent no fix for this long; once per silence',
		},
	],
	settings: (read) => ({
		silentAfterMinutes: read.check('Silent After (Minutes)', toPositive(read.parameter('silentAfterMinutes', DEFAULT_SILENT_AFTER_MINUTES))),
	}),
	detect(observation, previous, settings) {
		const newest = observation.newest;
		if (!newest) return { events: [] };
		const events: TriggerEvent[] = [];
		const firstFresh = observation.fresh[0];
		if (previous.silent === true && firstFresh && observation.previous) {
			// The gap from the last fix before the silence to the first one after it (in Latest Fix mode,
			// the first one a poll saw).
			const gapMs = fixTime(firstFresh) - parseServiceTime(observation.previous.at);
			events.push(deviceEvent('deviceBackOnline', observation, firstFresh, { silentForMinutes: Math.floor(gapMs / MINUTE_MS) }));
		}
		const afterMs = settings.silentAfterMinutes * MINUTE_MS;
		const heard = lastHeard(observation, previous, afterMs);
		const since = Math.max(fixTime(newest), heard === undefined ? -Infinity : parseServiceTime(heard));
		if (observation.now.getTime() - since < afterMs) return { events, state: { silent: false, heard } };
		const alreadyReported = previous.silent === true && observation.fresh.length === 0;
		const report = !alreadyReported && (previous.silent !== undefined || settings.emitCurrentState);
		if (report) events.push(silence('deviceSilent', observation, newest, since));
		return { events, state: { silent: true, heard } };
	},
	sample(kind, observation, settings, consistent) {
		const newest = observation.newest;
		if (!consistent || !newest) return silence(kind, observation, newest);
		if (kind === 'deviceBackOnline') {
			return deviceEvent(kind, observation, newest, { silentForMinutes: settings.silentAfterMinutes });
		}
		// The newest fix, dated back to where the silence is reported when it is more recent.
		const silentSince = Math.min(fixTime(newest), observation.now.getTime() - settings.silentAfterMinutes * MINUTE_MS);
		return silence(kind, observation, { ...newest, dateTime: new Date(silentSince).toISOString() });
	},
};

/**
 * When a poll last fetched a new fix that was already dated more than Silent After before it (ISO):
 * a device whose clock runs behind (its zone taken for UTC) sends fixes that all look that old, and
 * measured by their dates alone it was reported silent, and back online, at every poll while it
 * reported every few minutes (the red team, issue 21). Kept only while no newer fix comes; absent
 * for a device seen for the first time, whose fix may have arrived at any time before.
 */
function lastHeard(observation: Observation, previous: DeviceState, afterMs: number): string | undefined {
	if (observation.fresh.length === 0) return previous.heard;
	const known = previous.fix !== undefined || previous.since !== undefined;
	const lagging = observation.now.getTime() - fixTime(observation.newest!) >= afterMs;
	return known && lagging ? observation.now.toISOString() : undefined;
}

/**
 * A silence is told apart by the fix it follows; how long it has lasted grows from poll to poll.
 * `since` (epoch ms): when the device was last heard from, when that is later than its newest fix's date.
 */
function silence(kind: EventKind, observation: Observation, newest: Observation['newest'], since?: number): TriggerEvent {
	const silentForMinutes = newest ? Math.floor((observation.now.getTime() - (since ?? fixTime(newest))) / MINUTE_MS) : undefined;
	return deviceEvent(kind, observation, newest ?? null, { silentForMinutes }, [newest && fixTime(newest)]);
}
