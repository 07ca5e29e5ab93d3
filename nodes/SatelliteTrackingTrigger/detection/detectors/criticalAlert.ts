import type { Location } from '../../../shared/wire';
import { deviceEvent, type Detector } from '../detector';

/**
 * Every new fix that carries an alert. The filter narrows which alert texts count; a fix the device
 * flags critical (`hasCriticalAlert`, which the API keeps apart from the texts) is reported whatever
 * the filter.
 */
export const criticalAlert: Detector = {
	properties: [
		{
			displayName: 'Alert Text Filter',
			name: 'alertFilter',
			type: 'string',
			default: '',
			placeholder: 'e.g. SOS, Power cut',
			description:
				'Only alerts whose text contains one of these (comma-separated, any case). Empty: every alert. A fix the device flags critical is reported whatever this filter.',
		},
	],
	detect(observation, _previous, settings) {
		const events = observation.fresh.flatMap((fix) => {
			const alerts = matchingAlerts(fix, settings.alertFilter);
			return alerts ? [deviceEvent('criticalAlert', observation, fix, { alerts })] : [];
		});
		return { events };
	},
	sample(kind, observation, settings) {
		const fix = observation.newest;
		const texts = fix ? alertTexts(fix as Partial<Location>) : [];
		const alerts = texts.length > 0 ? texts : settings.alertFilter.length > 0 ? settings.alertFilter : ['Sample alert'];
		return deviceEvent(kind, observation, fix ?? null, { alerts });
	},
};

/**
 * The fix's alert texts to report: those matching the filter, or all of them for a fix flagged
 * critical; undefined when the fix raises nothing to report.
 */
export function matchingAlerts(fix: Location, filter: string[]): string[] | undefined {
	const texts = alertTexts(fix);
	if (fix.hasCriticalAlert === true) return texts;
	const matched = filter.length === 0 ? texts : texts.filter((text) => filter.some((needle) => text.toLowerCase().includes(needle)));
	return matched.length > 0 ? matched : undefined;
}

function alertTexts(fix: Partial<Pick<Location, 'alertTexts' | 'alerts'>>): string[] {
	return [...new Set([...(fix.alertTexts ?? []), ...(fix.alerts ?? [])])].filter((text) => typeof text === 'string' && text.trim() !== '');
}
