import type { Location } from '../../../shared/wire';
import { deviceEvent, type Detector } from '../detector';

/** Every new fix that carries an alert (and, with a filter, an alert text matching it). */
export const criticalAlert: Detector = {
	properties: [
		{
			displayName: 'Alert Text Filter',
			name: 'alertFilter',
			type: 'string',
			default: '',
			placeholder: 'e.g. SOS, Power cut',
			description: 'Only alerts whose text contains one of these (comma-separated, any case). Empty: every alert.',
		},
	],
	detect(observation, _previous, settings) {
		const events = observation.fresh.flatMap((fix) => {
			const alerts = matchingAlerts(fix, settings.alertFilter);
			return alerts ? [deviceEvent('criticalAlert', observation, fix, { alerts })] : [];
		});
		return { events };
	},
};

/** The fix's alert texts that match; undefined when the fix raises nothing that matches. */
export function matchingAlerts(fix: Location, filter: string[]): string[] | undefined {
	const texts = [...new Set([...(fix.alertTexts ?? []), ...(fix.alerts ?? [])])].filter(
		(text) => typeof text === 'string' && text.trim() !== '',
	);
	if (filter.length === 0) return texts.length > 0 || fix.hasCriticalAlert === true ? texts : undefined;
	const matched = texts.filter((text) => filter.some((needle) => text.toLowerCase().includes(needle)));
	return matched.length > 0 ? matched : undefined;
}
