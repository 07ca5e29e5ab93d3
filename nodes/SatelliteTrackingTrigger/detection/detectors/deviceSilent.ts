import { deviceEvent, type Detector } from '../detector';
import { fixTime } from '../fixes';

const MINUTE_MS = 60_000;

export const DEFAULT_SILENT_AFTER_MINUTES = 60;

/**
 * A device whose newest fix is older than the silence threshold: reported once per silence, and
 * again only after it has sent a fix and fallen silent anew. A device that never reported has no
 * silence to measure.
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
	detect(observation, previous, settings) {
		const newest = observation.newest;
		if (!newest) return { events: [] };
		const silentMs = observation.now.getTime() - fixTime(newest);
		if (silentMs < settings.silentAfterMinutes * MINUTE_MS) return { events: [], state: { silent: false } };
		const alreadyReported = previous.silent === true && observation.fresh.length === 0;
		const report = !alreadyReported && (previous.silent !== undefined || settings.emitCurrentState);
		const events = report
			? [deviceEvent('deviceSilent', observation, newest, { silentForMinutes: Math.floor(silentMs / MINUTE_MS) })]
			: [];
		return { events, state: { silent: true } };
	},
};
