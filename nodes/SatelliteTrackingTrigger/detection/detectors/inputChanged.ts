import type { Location } from '../../../shared/wire';
import { toOneOf, preview, type Check } from '../../../shared/validation';
import { deviceEvent, type Detector, type Observation, type SettingsReader } from '../detector';
import { fixFingerprint } from '../fixes';
import type { DeviceState, TriggerEvent } from '../types';

export type DigitalLine = 'input' | 'output';

/** Which lines, which indexes (empty for all) and which switches are reported. */
export interface InputChangeSettings {
	lines: DigitalLine[];
	indexes: number[];
	direction: 'on' | 'off' | 'both';
}

declare module '../types' {
	interface DetectionSettings {
		/** inputChanged: absent when the event is not watched. */
		inputChange?: InputChangeSettings;
	}
	interface DeviceState {
		/** inputChanged: the newest fix's inputs and outputs as bits, e.g. `10` and `0`. */
		inputs?: string;
		outputs?: string;
	}
	interface EventOutput {
		/** Which digital line (0-based) of the fix's `inputs` (or `outputs`) switched, from what to what. */
		inputChanged: { input: number; line: DigitalLine; from: boolean; to: boolean };
	}
}

const FIELD: Record<DigitalLine, 'inputs' | 'outputs'> = { input: 'inputs', output: 'outputs' };

/**
 * A digital input (a door sensor, a panic button, ignition) or output switching between fixes:
 * which lines and which way are the user's choice. The first fix that carries the lines is the
 * baseline: there is no switch to report without a state before it.
 */
export const inputChanged: Detector = {
	properties: [
		{
			displayName: 'Inputs',
			name: 'inputIndexes',
			type: 'string',
			default: '',
			placeholder: 'e.g. 0, 2',
			description: "Which of the fix's digital lines to watch, counted from 0 (comma-separated). Empty: all.",
		},
		{
			displayName: 'Input Switches',
			name: 'inputDirection',
			type: 'options',
			default: 'both',
			options: [
				{ name: 'Off to On', value: 'on' },
				{ name: 'On to Off', value: 'off' },
				{ name: 'Both Ways', value: 'both' },
			],
		},
		{
			displayName: 'Lines',
			name: 'inputLines',
			type: 'options',
			default: 'inputs',
			options: [
				{ name: 'Digital Inputs', value: 'inputs' },
				{ name: 'Digital Outputs', value: 'outputs' },
				{ name: 'Inputs and Outputs', value: 'both' },
			],
		},
	],
	needs: { telemetry: true },
	settings: (read) => ({ inputChange: read.events.includes('inputChanged') ? readInputChange(read) : undefined }),
	detect(observation, previous, settings) {
		const config = settings.inputChange;
		if (!config) return { events: [] };
		const events: TriggerEvent[] = [];
		const state: Pick<DeviceState, 'inputs' | 'outputs'> = {};
		for (const line of config.lines) {
			state[FIELD[line]] = switches(line, previous[FIELD[line]], observation, config, events);
		}
		return { events, state };
	},
	sample(_kind, observation, settings, consistent) {
		// The first watched line of the newest fix, as if it had just switched to what it shows (in
		// version 2, the way Input Switches watches, shown in the fix too).
		const config = settings.inputChange ?? { lines: ['input'], indexes: [], direction: 'both' };
		const line = config.lines[0];
		const input = config.indexes[0] ?? 0;
		const fix = observation.newest ?? null;
		const bits = fix ? toBits(fix as Location, line) : undefined;
		const shown = bits?.[input] === undefined ? config.direction !== 'off' : bits[input] === '1';
		const to = consistent && config.direction !== 'both' ? config.direction === 'on' : shown;
		const location = fix && to !== shown ? withLine(fix as Location, line, input, to) : fix;
		return switched(observation, location, { input, line, from: !to, to });
	},
};

const LINES: Record<string, InputChangeSettings['lines']> = { inputs: ['input'], outputs: ['output'], both: ['input', 'output'] };

function readInputChange(read: SettingsReader): InputChangeSettings {
	return {
		lines: LINES[read.check('Lines', toOneOf(read.parameter('inputLines', 'inputs'), ['inputs', 'outputs', 'both'] as const))],
		indexes: read.check('Inputs', toIndexList(read.parameter('inputIndexes', ''))),
		direction: read.check('Input Switches', toOneOf(read.parameter('inputDirection', 'both'), ['on', 'off', 'both'] as const)),
	};
}

/** `0, 2` (or an expression's array) as input indexes; empty for all. */
function toIndexList(value: unknown): Check<number[]> {
	const parts = Array.isArray(value) ? value : String(value ?? '').split(',');
	const indexes: number[] = [];
	for (const part of parts) {
		const text = String(part).trim();
		if (text === '') continue;
		const index = Number(text);
		if (!Number.isInteger(index) || index < 0) {
			return { ok: false, problem: `must list input numbers from 0, separated by commas (got ${preview(value)})` };
		}
		indexes.push(index);
	}
	return { ok: true, value: [...new Set(indexes)] };
}

/** Told apart by the fix and the line: several can switch in one fix. */
function switched(observation: Observation, fix: TriggerEvent['location'], details: Pick<TriggerEvent, 'input' | 'line' | 'from' | 'to'>): TriggerEvent {
	return deviceEvent('inputChanged', observation, fix, details, [fix && fixFingerprint(fix, true), details.line, details.input]);
}

function switches(
	line: DigitalLine,
	known: string | undefined,
	observation: Observation,
	config: InputChangeSettings,
	events: TriggerEvent[],
): string | undefined {
	let bits = known;
	for (const fix of observation.readings) {
		const now = toBits(fix, line);
		if (now === undefined) continue;
		if (bits !== undefined) {
			for (let input = 0; input < Math.min(bits.length, now.length); input++) {
				if (bits[input] === now[input] || !watched(config, input, now[input] === '1')) continue;
				events.push(switched(observation, fix, { input, line, from: bits[input] === '1', to: now[input] === '1' }));
			}
		}
		// A fix that carries fewer lines says nothing of the others: they keep their last known state.
		bits = now + (bits?.slice(now.length) ?? '');
	}
	return bits;
}

function watched(config: InputChangeSettings, input: number, on: boolean): boolean {
	if (config.indexes.length > 0 && !config.indexes.includes(input)) return false;
	return config.direction === 'both' || (config.direction === 'on') === on;
}

/** `[true, false]` as `10`: compact for state; undefined when the fix does not carry the lines. */
function withLine(fix: Location, line: DigitalLine, input: number, on: boolean): Location {
	return { ...fix, [FIELD[line]]: (fix[FIELD[line]] ?? []).map((value, index) => (index === input ? on : value)) };
}

function toBits(fix: Location, line: DigitalLine): string | undefined {
	const values = fix[FIELD[line]];
	return Array.isArray(values) ? values.map((value) => (value === true ? '1' : '0')).join('') : undefined;
}
