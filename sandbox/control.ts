/**
 * Control routes for tests, demos and benches that run the sandbox as a separate process:
 * `/__sandbox/...` drives and inspects it, and `/__sink/<anything>` accepts whatever an example
 * workflow posts (a chat webhook, an e-mail relay) for later inspection. None needs a token, and
 * none counts as an API request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Alert, Device } from './vendorApi';
import { ApiError } from './apiError';
import type { TokenIssuer } from './auth';
import type { FaultInjector, FaultSpec } from './faults';
import { jsonAnswer, lenientBody, readBody, send } from './http';
import type { RuntimeOptions } from './options';
import type { Recorder } from './recorder';
import type { FixInput, MoveRequest, SandboxStore } from './store';
import { hasOwn, isRecord } from './validation';

export const CONTROL_PREFIX = '__sandbox';
/** Test data (`POST /__sandbox/fixes`) may be larger than an API body. */
const MAX_CONTROL_BODY_BYTES = 50 * 1024 * 1024;
export const SINK_PREFIX = '__sink';

export interface ControlTarget {
	area: typeof CONTROL_PREFIX | typeof SINK_PREFIX;
	rest: string[];
}

/** Control routes answer both at the root and under the base path. */
export function locateControl(segments: string[], base: string[]): ControlTarget | undefined {
	const underBase = base.every((segment, i) => segments[i] === segment) ? segments.slice(base.length) : undefined;
	for (const candidate of [segments, underBase]) {
		const area = candidate?.[0];
		if (area === CONTROL_PREFIX || area === SINK_PREFIX) return { area, rest: candidate!.slice(1) };
	}
	return undefined;
}

/** What the control routes drive and inspect: the sandbox app hands itself over (SandboxApp implements it). */
export interface ControlledApp {
	readonly store: SandboxStore;
	readonly faults: FaultInjector;
	readonly recorder: Recorder;
	readonly tokens: TokenIssuer;
	setOptions(partial: Partial<RuntimeOptions>): void;
	resetStats(): void;
}

type ControlAction = (app: ControlledApp, body: Record<string, unknown>, query: URLSearchParams) => unknown;

const ok = (fields: Record<string, unknown> = {}) => ({ ok: true, ...fields });

const ACTIONS: Record<string, ControlAction> = {
	'GET stats': (app) => app.recorder.stats,
	'POST reset-stats': (app) => (app.resetStats(), ok()),
	'POST revoke-tokens': (app) => (app.tokens.revokeAll(), ok()),
	'GET tokens': (app) => app.tokens.issued,
	'GET requests': (app) => app.recorder.requestLog,
	'GET writes': (app) => app.recorder.writes,
	'GET commands': (app) => app.store.commands,
	'GET facts': (app) => app.store.facts,
	'POST move': (app, body) => {
		const moved = app.store.moveDevices(body as unknown as MoveRequest);
		return ok({ moved: Object.fromEntries(Object.entries(moved).map(([id, fixes]) => [id, fixes.length])) });
	},
	'GET faults': (app) => app.faults.list().map((fault) => ({ ...fault, match: describeMatch(fault) })),
	'POST faults': (app, body) => ok({ id: app.faults.inject(faultFromJson(body)).id }),
	'DELETE faults': (app) => (app.faults.clear(), ok()),
	'POST options': (app, body) => (app.setOptions(optionsFromJson(body)), ok()),
	'POST fix': (app, body) => ok({ location: app.store.addFix(String(body.deviceId), body.location as FixInput) }),
	'POST fixes': (app, body) => ok({ added: (body.locations as FixInput[]).map((location) => app.store.addFix(String(body.deviceId), location)).length }),
	'POST alert': (app, body) => ok({ alert: app.store.addAlert(String(body.deviceId), body.alert as Partial<Alert>) }),
	'POST devices': (app, body) => ok({ device: app.store.addDevice(body.device as Device) }),
	'DELETE devices': (app, _body, query) => ok({ removed: app.store.removeDevice(query.get('id') ?? '') }),
	'GET sink': (app) => app.recorder.sink,
	'GET received': (app, _body, query) => {
		const path = query.get('path');
		return app.recorder.sink.filter((entry) => path === null || entry.path === path);
	},
};

export async function handleControl(
	app: ControlledApp,
	control: ControlTarget,
	request: IncomingMessage,
	response: ServerResponse,
	query: URLSearchParams,
): Promise<void> {
	let raw: Buffer;
	try {
		raw = await readBody(request, MAX_CONTROL_BODY_BYTES);
	} catch (error) {
		const status = error instanceof ApiError ? error.status : 400;
		return send(response, jsonAnswer(status, { ok: false, error: error.message }));
	}
	const body = lenientBody(raw);
	if (control.area === SINK_PREFIX) {
		app.recorder.sunk({
			method: request.method ?? 'GET',
			path: `/${control.rest.join('/')}`,
			query: Object.fromEntries(query),
			headers: request.headers,
			body,
			at: Date.now(),
		});
		return send(response, jsonAnswer(200, { ok: true }));
	}
	const action = ACTIONS[`${request.method} ${control.rest.join('/')}`];
	if (!action) {
		return send(response, jsonAnswer(404, { ok: false, error: `No control route ${request.method} /${CONTROL_PREFIX}/${control.rest.join('/')}. Known: ${Object.keys(ACTIONS).join('; ')}.` }));
	}
	try {
		send(response, jsonAnswer(200, action(app, isRecord(body) ? body : {}, query)));
	} catch (error) {
		send(response, jsonAnswer(400, { ok: false, error: error.message }));
	}
}

const isWhole = (value: unknown, min: number) => Number.isInteger(value) && (value as number) >= min;
const isBetween = (value: unknown, min: number, max: number) => typeof value === 'number' && value >= min && value <= max;
const isAccount = (value: unknown) => isRecord(value) && typeof value.userName === 'string' && typeof value.apiKey === 'string';
const isRateLimit = (value: unknown) =>
	value === null ||
	(isRecord(value) && isWhole(value.requests, 1) && isBetween(value.windowMs, 1, 2 ** 31 - 1) && ['boolean', 'undefined'].includes(typeof value.includeTokenCalls) && [undefined, 'sliding', 'fixed'].includes(value.shape as string | undefined));

/**
 * The runtime options JSON can set, each checked: `{"clock": "x"}` or `{"accounts": 5}` was taken as
 * given and failed every later request with a 500. `clock` is a function, so it is set in-process only.
 */
const JSON_OPTIONS: Record<Exclude<keyof RuntimeOptions, 'clock'>, { expected: string; accepts(value: unknown): boolean }> = {
	tokenLifetimeSeconds: { expected: 'a whole number of seconds, 1 or more', accepts: (v) => isWhole(v, 1) },
	tokenFailureStatus: { expected: 'an HTTP status from 200 to 599', accepts: (v) => isWhole(v, 200) && (v as number) <= 599 },
	rateLimit: { expected: 'null or { requests: 1 or more, windowMs: 1 to 2147483647, includeTokenCalls?: true or false, shape?: "sliding" or "fixed" }', accepts: isRateLimit },
	retryAfterHeader: { expected: 'true or false', accepts: (v) => typeof v === 'boolean' },
	latencyMs: { expected: 'milliseconds from 0 to 600000', accepts: (v) => isBetween(v, 0, 600_000) },
	accounts: { expected: 'an array of { userName, apiKey } strings', accepts: (v) => Array.isArray(v) && v.every(isAccount) },
	requestLogLimit: { expected: 'a whole number of 0 or more', accepts: (v) => isWhole(v, 0) },
};

function optionsFromJson(body: Record<string, unknown>): Partial<RuntimeOptions> {
	for (const [key, value] of Object.entries(body)) {
		if (!hasOwn(JSON_OPTIONS, key)) throw new Error(`Unknown option "${key}"; JSON can set ${Object.keys(JSON_OPTIONS).join(', ')}.`);
		const option = JSON_OPTIONS[key as keyof typeof JSON_OPTIONS];
		if (!option.accepts(value)) throw new Error(`${key} must be ${option.expected}.`);
	}
	return body as Partial<RuntimeOptions>;
}

/** JSON cannot carry a RegExp: `match.pathPattern` is its source. */
function faultFromJson(body: Record<string, unknown>): FaultSpec {
	const unknown = Object.keys(body).find((key) => !FAULT_JSON_FIELDS.includes(key));
	if (unknown !== undefined) throw new Error(`Unknown fault field "${unknown}"; a fault has ${FAULT_JSON_FIELDS.join(', ')}.`);
	const spec = { ...body } as unknown as FaultSpec & { match?: { pathPattern?: string } };
	// GET /__sandbox/faults lists a fault without an end as `times: null` (JSON has no Infinity).
	if ((spec.times as unknown) === null) delete spec.times;
	const pattern = typeof spec.match === 'object' && spec.match !== null ? spec.match.pathPattern : undefined;
	if (pattern !== undefined) {
		if (typeof pattern !== 'string') throw new Error('match.pathPattern must be the source of a regular expression.');
		const { pathPattern: _unused, ...match } = spec.match!;
		spec.match = { ...match, path: new RegExp(pattern) };
	}
	return spec;
}

/** What POST /__sandbox/faults takes (FaultSpec; `id` and `applied` as GET lists them are ignored). */
const FAULT_JSON_FIELDS = [
	'kind',
	'match',
	'status',
	'retryAfter',
	'delayMs',
	'times',
	'probability',
	'afterApply',
	'message',
	'echoRequest',
	'sizeBytes',
	'ids',
	'id',
	'applied',
];

function describeMatch({ match }: FaultSpec): Record<string, unknown> | undefined {
	if (!match) return undefined;
	return { method: match.method, path: match.path instanceof RegExp ? `/${match.path.source}/` : match.path };
}
