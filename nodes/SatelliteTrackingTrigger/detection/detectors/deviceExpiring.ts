import { isExpiringWithin } from '../../../shared/devices';
import { deviceEvent, type Detector } from '../detector';

export const DEFAULT_EXPIRING_WITHIN_DAYS = 7;

/** A device whose `expires` falls within the window: once per device and expiry date. */
export const deviceExpiring: Detector = {
	properties: [
		{
			displayName: 'Expiring Within (Days)',
			name: 'expiringWithinDays',
			type: 'number',
			default: DEFAULT_EXPIRING_WITHIN_DAYS,
			typeOptions: { minValue: 0 },
			description: 'Report a device whose license expires within this many days; once per device and expiry date',
		},
	],
	detect(observation, previous, settings) {
		const expires = observation.device.expires ?? '';
		if (!isExpiringWithin(observation.device, observation.now, settings.expiringWithinDays)) return { events: [], state: { expiry: previous.expiry ?? '' } };
		const report = previous.expiry !== expires && (previous.expiry !== undefined || settings.emitCurrentState);
		const events = report
			? [deviceEvent('deviceExpiring', observation, observation.newest ?? null, { expires })]
			: [];
		return { events, state: { expiry: expires } };
	},
};
