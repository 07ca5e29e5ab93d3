import { preview, type Check } from '../../../shared/validation';
import { ALERT_NAMES, type Location } from '../../../shared/wire';
import { deviceEvent, type Detector } from '../detector';

declare module '../types' {
	interface DetectionSettings {
		/** criticalAlert: lower-case texts of which an alert must contain one; empty for any alert. */
		alertFilter: string[];
		/** criticalAlert: documented alert names (`fix.alerts`) that count, exactly as the service spells them; empty for any. */
		alertNames?: string[];
	}
	interface EventOutput {
		/** The alert texts of the fix that matched the filter. */
		criticalAlert: { alerts: string[] };
	}
}

/**
 * Every new fix that carries an alert. The filters narrow which alerts count (a documented alert
 * name, or a text); a fix the device flags critical (`hasCriticalAlert`, which the API keeps apart
 * from the alerts) is reported whatever the filters.
 */
export const criticalAlert: Detector = {
	properties: [
		{
			displayName: 'Alert Names',
			name: 'alertNames',
			type: 'multiOptions',
			default: [],
			options: Object.entries(ALERT_NAMES)
				.map(([name, meaning]) => ({ name, value: name, description: meaning }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			description:
				'Only alerts of these names, as the platform raises them when they are configured for the device in the web app. Empty, with an empty text filter: every alert.',
		},
		{
			displayName: 'Alert Text Filter',
			name: 'alertFilter',
			type: 'string',
			default: '',
			placeholder: 'e.g. SOS, Power cut',
			description:
				'Only alerts whose text contains one of these (comma-separated, any case), besides those of the names above. A fix the device flags critical is reported whatever the filters.',
		},
	],
	settings: (read) => ({
		alertFilter: read.check('Alert Text Filter', toTextList(read.parameter('alertFilter', ''))).map((text) => text.toLowerCase()),
		alertNames: read.check('Alert Names', toTextList(read.parameter('alertNames', []))),
	}),
	detect(observation, _previous, settings) {
		// A fix uploaded late still raised its alerts (an SOS buffered out of coverage).
		const events = [...observation.late, ...observation.fresh].flatMap((fix) => {
			const alerts = matchingAlerts(fix, settings.alertFilter, settings.alertNames ?? []);
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
 * The fix's alerts to report: its texts containing one of the filter's and its names chosen, all of
 * them without filters or for a fix flagged critical; undefined when the fix raises nothing to report.
 */
export function matchingAlerts(fix: Location, filter: string[], names: string[] = []): string[] | undefined {
	const texts = alertTexts(fix);
	if (fix.hasCriticalAlert === true || (filter.length === 0 && names.length === 0)) return texts.length > 0 || fix.hasCriticalAlert === true ? texts : undefined;
	const matched = texts.filter(
		(text) => filter.some((needle) => text.toLowerCase().includes(needle)) || (names.includes(text) && (fix.alerts ?? []).includes(text)),
	);
	return matched.length > 0 ? matched : undefined;
}

function alertTexts(fix: Partial<Pick<Location, 'alertTexts' | 'alerts'>>): string[] {
	return [...new Set([...(fix.alertTexts ?? []), ...(fix.alerts ?? [])])].filter((text) => typeof text === 'string' && text.trim() !== '');
}

/** `SOS, Power cut` (or an expression's array) as trimmed texts, empty ones left out. */
function toTextList(value: unknown): Check<string[]> {
	const parts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
	if (!parts || parts.some((part) => typeof part !== 'string' && typeof part !== 'number')) {
		return { ok: false, problem: `must be texts separated by commas (got ${preview(value)})` };
	}
	return { ok: true, value: parts.map((part) => String(part).trim()).filter((text) => text !== '') };
}
