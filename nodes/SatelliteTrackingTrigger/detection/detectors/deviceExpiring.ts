import { deviceEvent, type Detector } from '../detector';

const DAY_MS = 86_400_000;

/** A device whose `expires` falls within the window: once per device and expiry date. */
export const deviceExpiring: Detector = {
	properties: [
		{
			displayName: 'Expiring Within (Days)',
			name: 'expiringWithinDays',
			type: 'number',
			default: 7,
			typeOptions: { minValue: 0 },
			description: 'Report a device whose license expires within this many days; once per device and expiry date',
		},
	],
	detect(observation, previous, settings) {
		const expires = observation.device.expires ?? '';
		const at = Date.parse(expires);
		const now = observation.now.getTime();
		const within = at > now && at <= now + settings.expiringWithinDays * DAY_MS;
		if (!within) return { events: [], state: { expiry: previous.expiry ?? '' } };
		const report = previous.expiry !== expires && (previous.expiry !== undefined || settings.emitCurrentState);
		const events = report
			? [deviceEvent('deviceExpiring', observation, observation.newest ?? null, { expires })]
			: [];
		return { events, state: { expiry: expires } };
	},
};
