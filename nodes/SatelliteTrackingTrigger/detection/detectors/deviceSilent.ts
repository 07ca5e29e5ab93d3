import { deviceEvent, type Detector, type Observation } from '../detector';
import { fixTime, MINUTE_MS } from '../fixes';
import type { EventKind, TriggerEvent } from '../types';
import { parseServiceTime, toPositive } from '../../../shared/validation';

export const DEFAULT_SILENT_AFTER_MINUTES = 60;

declare module '../types' {
	interface DetectionSettings {
		silentAfterMinutes: number;
	}
	interface DeviceState {
		/** deviceSilent and deviceBackOnline: the device was silent at the last poll (one slice, so the two always pair). */
		silent?: boolean;
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
		const silentMs = observation.now.getTime() - fixTime(newest);
		if (silentMs < settings.silentAfterMinutes * MINUTE_MS) return { events, state: { silent: false } };
		const alreadyReported = previous.silent === true && observation.fresh.length === 0;
		const report = !alreadyReported && (previous.silent !== undefined || settings.emitCurrentState);
		if (report) events.push(silence('deviceSilent', observation, newest));
		return { events, state: { silent: true } };
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

/** A silence is told apart by the fix it follows; how long it has lasted grows from poll to poll. */
function silence(kind: EventKind, observation: Observation, newest: Observation['newest']): TriggerEvent {
	const silentForMinutes = newest ? Math.floor((observation.now.getTime() - fixTime(newest)) / MINUTE_MS) : undefined;
	return deviceEvent(kind, observation, newest ?? null, { silentForMinutes }, [newest && fixTime(newest)]);
}
