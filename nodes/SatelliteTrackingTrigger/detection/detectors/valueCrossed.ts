import { hasTag } from '../../../shared/devices';
import { shortHash } from '../../../shared/hash';
import type { Location } from '../../../shared/wire';
import { toNumberInRange, toOneOf } from '../../../shared/validation';
import { deviceEvent, type Detector, type Observation, type SettingsReader } from '../detector';
import { difference, fixFingerprint, numericValue } from '../fixes';
import { NUMERIC_FIX_FIELDS, type DetectionSettings, type NumericFixField, type TriggerEvent } from '../types';

export type ThresholdDirection = 'above' | 'below';

/** One rule the user listed. */
export interface ThresholdRule {
	field: NumericFixField;
	direction: ThresholdDirection;
	value: number;
	/** How far past the threshold, back out of the range, a value must go before the rule fires again. */
	hysteresis: number;
	/** Only devices with this tag (and value, when not empty); absent for every device. */
	tag?: { key: string; value: string };
}

declare module '../types' {
	interface DetectionSettings {
		/** valueCrossed: absent (or empty) when the event is not watched. */
		thresholdRules?: ThresholdRule[];
	}
	interface DeviceState {
		/** valueCrossed: rule key → the device's value is inside the rule's range. */
		ranges?: Record<string, boolean>;
	}
	interface EventOutput {
		/** The fix's field and value that crossed the rule's threshold in its direction. */
		valueCrossed: { field: NumericFixField; value: number; threshold: number; direction: ThresholdDirection };
	}
}

const FIELD_NAMES: Record<(typeof NUMERIC_FIX_FIELDS)[number], string> = {
	speed: 'Speed',
	battery: 'Battery',
	fuel: 'Fuel',
	fuel2: 'Fuel 2',
	temperature: 'Temperature',
	temperature2: 'Temperature 2',
	rpm: 'RPM',
	milleage: 'Mileage',
	inactiveSeconds: 'Inactive Seconds',
};

/**
 * A device's telemetry value crossing into a rule's range (above or below a threshold): reported
 * once, and again only after the value has left the range by more than the rule's hysteresis, so a
 * value wobbling around the threshold does not flap. A rule a device has no record for (a new rule,
 * an edited one, a device whose fixes lacked the field) starts from the first value seen: inside
 * the range then is reported only when the current state is to be emitted.
 */
export const valueCrossed: Detector = {
	lists: [
		{
			displayName: 'Threshold Rules',
			name: 'thresholdRules',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Rule',
			default: {},
			description: 'What Telemetry Threshold watches. Editing a rule starts it afresh: where the values are is recorded again, without events.',
			options: [
				{
					displayName: 'Rule',
					name: 'rule',
					values: [
						{
							displayName: 'Field',
							name: 'field',
							type: 'options',
							default: 'temperature',
							options: NUMERIC_FIX_FIELDS.map((value) => ({ name: FIELD_NAMES[value], value })),
							description: 'The fix field to watch, in the unit the device reports it',
						},
						{
							displayName: 'Fires When',
							name: 'direction',
							type: 'options',
							default: 'above',
							description: 'Whether the rule fires when the field rises above the threshold or falls below it',
							options: [
								{ name: 'Rises Above', value: 'above' },
								{ name: 'Falls Below', value: 'below' },
							],
						},
						{
							displayName: 'Threshold',
							name: 'value',
							type: 'number',
							default: 0,
							typeOptions: { numberPrecision: 2 },
							description: 'The value the rule watches for, in the field\'s own unit (speed in km/h as the app shows it): an event when the field rises above it or falls below it',
						},
						{
							displayName: 'Threshold Hysteresis',
							name: 'hysteresis',
							type: 'number',
							default: 0,
							typeOptions: { minValue: 0, numberPrecision: 2 },
							description: 'After an event, the value must come back past the threshold by more than this (in the field\'s own unit) before the rule fires again',
						},
						{
							displayName: 'With Tag Key',
							name: 'tagKey',
							type: 'string',
							default: '',
							placeholder: 'e.g. cargo',
							description: 'Apply the rule only to devices with this tag; leave empty for every watched device',
						},
						{
							displayName: 'With Tag Value',
							name: 'tagValue',
							type: 'string',
							default: '',
							placeholder: 'e.g. chilled',
							description: 'Leave empty for every device that has the tag, whatever its value',
						},
					],
				},
			],
		},
	],
	needs: { telemetry: true },
	settings: (read) => ({ thresholdRules: read.events.includes('valueCrossed') ? readThresholdRules(read) : undefined }),
	detect(observation, previous, settings) {
		const events: TriggerEvent[] = [];
		const ranges: Record<string, boolean> = {};
		const watched = new Set<string>();
		for (const rule of settings.thresholdRules ?? []) {
			if (rule.tag && !hasTag(observation.device, rule.tag.key, rule.tag.value)) continue;
			const key = ruleKey(rule);
			// A rule listed twice is one rule: its events would otherwise come twice, with one id.
			if (watched.has(key)) continue;
			watched.add(key);
			const inside = crossings(rule, previous.ranges?.[key], observation, settings, events);
			if (inside !== undefined) ranges[key] = inside;
		}
		return { events, state: { ranges: Object.keys(ranges).length > 0 ? ranges : undefined } };
	},
	sample(_kind, observation, settings, consistent) {
		const rules = settings.thresholdRules ?? [];
		const rule = rules.find((candidate) => !candidate.tag || hasTag(observation.device, candidate.tag.key, candidate.tag.value)) ?? rules[0];
		const fix = observation.newest ?? null;
		if (!rule) return deviceEvent('valueCrossed', observation, fix);
		const value = fix ? numericValue(fix as Partial<Location>, rule.field) : undefined;
		if (!consistent) return crossing(observation, fix, rule, value ?? rule.value);
		// The fix's value when it is past the rule, else one unit past, shown in the fix too.
		const past = value !== undefined && rangeSide(rule, value) === 'entered' ? value : rule.value + (rule.direction === 'above' ? 1 : -1);
		return crossing(observation, fix && { ...fix, [rule.field]: past }, rule, past);
	},
};

function readThresholdRules(read: SettingsReader): ThresholdRule[] {
	const rows = read.parameter<{ rule?: Array<Record<string, unknown>> }>('thresholdRules', {}).rule ?? [];
	if (rows.length === 0) read.fail('Add at least one threshold rule to watch for telemetry thresholds');
	return rows.map((row, index) => {
		const label = (name: string) => `Rule ${index + 1} ${name}`;
		const tagKey = String(row.tagKey ?? '').trim();
		const rule: ThresholdRule = {
			field: read.check(label('Field'), toOneOf(row.field, NUMERIC_FIX_FIELDS)),
			direction: read.check(label('Fires When'), toOneOf(row.direction, ['above', 'below'] as const)),
			value: read.check(label('Threshold'), toNumberInRange(row.value, -Infinity, Infinity)),
			hysteresis: read.check(label('Threshold Hysteresis'), toNumberInRange(row.hysteresis ?? 0, 0, Infinity)),
		};
		if (tagKey !== '') rule.tag = { key: tagKey, value: String(row.tagValue ?? '').trim() };
		return rule;
	});
}

/** Told apart by the fix and the whole rule: rules differing only in hysteresis or tag can fire on one fix. */
function crossing(observation: Observation, fix: TriggerEvent['location'], rule: ThresholdRule, value: number): TriggerEvent {
	const details = { field: rule.field, value, threshold: rule.value, direction: rule.direction };
	return deviceEvent('valueCrossed', observation, fix, details, [fix && fixFingerprint(fix, true), ruleKey(rule)]);
}

/** Stable across polls and restarts; changes when the rule is edited. */
function ruleKey(rule: ThresholdRule): string {
	return shortHash(JSON.stringify([rule.field, rule.direction, rule.value, rule.hysteresis, rule.tag?.key, rule.tag?.value]));
}

/** Whether `value` is in the rule's range (`entered`), out of it by more than the hysteresis (`left`), or between. */
function rangeSide(rule: ThresholdRule, value: number): 'entered' | 'left' | 'between' {
	const past = rule.direction === 'above' ? difference(value, rule.value) : difference(rule.value, value);
	if (past > 0) return 'entered';
	return -past > rule.hysteresis ? 'left' : 'between';
}

function crossings(
	rule: ThresholdRule,
	known: boolean | undefined,
	observation: Observation,
	settings: DetectionSettings,
	events: TriggerEvent[],
): boolean | undefined {
	let inside = known;
	for (const fix of observation.readings) {
		const value = numericValue(fix, rule.field);
		if (value === undefined) continue;
		const side = rangeSide(rule, value);
		if (side === 'between') {
			// Within the hysteresis band nothing changes; a first value there counts as outside.
			inside ??= false;
			continue;
		}
		const now = side === 'entered';
		const report = inside === undefined ? now && settings.emitCurrentState : now && !inside;
		if (report) events.push(crossing(observation, fix, rule, value));
		inside = now;
	}
	return inside;
}

