/**
 * Injected failures, to test how clients cope with a flaky service or a proxy in front of it.
 * A fault that answers in place of the API (status, reset, html, …) strikes before the request is
 * processed, so a write did not happen; with `afterApply` the write happens and its answer is lost.
 */
import { STATUS_CODES } from 'node:http';
import { ENVELOPE_KEYS } from './vendorApi';
import { RESET, jsonAnswer, textAnswer, type Answer, type Outcome } from './http';
import { Rng, hashSeed } from './random';

export const FAULT_KINDS = [
	'status',
	'reset',
	'html',
	'slow',
	'nonJson200',
	'arrayBody',
	'successFalse200',
	'missingPayload',
	'hugeBody',
	'dropListed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** A hugeBody answer is built in memory: 1e12 bytes failed every matching request with a 500, 1e9 risked the process. */
const MAX_HUGE_BODY_BYTES = 256 * 1024 * 1024;

export interface FaultMatch {
	method?: string;
	/**
	 * Against the decoded path without the base path (e.g. `/api/devices/../users`). A string matches
	 * that path exactly or the route template (`/api/devices/{deviceId}/lastLocation`).
	 */
	path?: string | RegExp;
}

export interface FaultSpec {
	match?: FaultMatch;
	kind: FaultKind;
	/** status: default 503; html: default 502. */
	status?: number;
	/** Seconds, sent as Retry-After with a `status` fault. */
	retryAfter?: number;
	/** slow: default 5000. */
	delayMs?: number;
	/** How many matching requests get the fault; default Infinity. */
	times?: number;
	/** Chance per matching request, drawn from the seeded PRNG; default 1. */
	probability?: number;
	/** Process the request (writes happen), then answer with the fault. missingPayload always does. */
	afterApply?: boolean;
	/** The `error` text of status and successFalse200 faults. */
	message?: string;
	/**
	 * status and successFalse200: the `error` text quotes the request back (its Authorization header
	 * and body), as some services' debug errors do: clients must not show what it quotes.
	 */
	echoRequest?: boolean;
	/** hugeBody: default 20 MiB. */
	sizeBytes?: number;
	/** dropListed: the ids the answer leaves out of its lists (a listing hiccup, a license lapsing for a while). */
	ids?: string[];
}

export interface Fault extends FaultSpec {
	id: number;
	/** How many requests got this fault so far. */
	applied: number;
}

export interface RequestFacts {
	method: string;
	path: string;
	routePath?: string;
}

/** What an `echoRequest` fault quotes back. */
export interface EchoedRequest {
	authorization?: string;
	body: string;
}

/** Longest Retry-After a fault sends: a day. */
const MAX_RETRY_AFTER_SECONDS = 86_400;
/** What Node's timers hold. */
const MAX_DELAY_MS = 2_147_483_647;

const isNumberIn = (value: unknown, min: number, max: number) => typeof value === 'number' && value >= min && value <= max;
const isWholeIn = (value: unknown, min: number, max: number) => Number.isInteger(value) && isNumberIn(value, min, max);

/**
 * Why a fault would fail the requests it matches instead of playing its part (a status Node cannot
 * send, a header with a line break, a `match` that is no object…: each answered 500 "Sandbox failure"
 * or hung the connection), or undefined when it is fine. Checked when it is injected, so the mistake
 * is answered 400 there.
 */
function specProblem(spec: FaultSpec): string | undefined {
	const { status, retryAfter, delayMs, times, probability, match, message, ids, sizeBytes } = spec;
	if (status !== undefined && !isWholeIn(status, 200, 599)) return 'status must be an HTTP status from 200 to 599.';
	if (retryAfter !== undefined && !isNumberIn(retryAfter, 0, MAX_RETRY_AFTER_SECONDS)) {
		return `retryAfter must be seconds, a number from 0 to ${MAX_RETRY_AFTER_SECONDS}.`;
	}
	if (delayMs !== undefined && !isWholeIn(delayMs, 0, MAX_DELAY_MS)) return `delayMs must be milliseconds from 0 to ${MAX_DELAY_MS}.`;
	if (times !== undefined && times !== Infinity && !isWholeIn(times, 1, Number.MAX_SAFE_INTEGER)) return 'times must be a whole number, 1 or more.';
	if (probability !== undefined && !isNumberIn(probability, 0, 1)) return 'probability must be a number from 0 to 1.';
	if (
		match !== undefined &&
		(typeof match !== 'object' ||
			match === null ||
			Array.isArray(match) ||
			(match.method !== undefined && typeof match.method !== 'string') ||
			(match.path !== undefined && typeof match.path !== 'string' && !(match.path instanceof RegExp)))
	) {
		return 'match must be { method?: text, path?: text, pathPattern?: a regular expression }.';
	}
	if (message !== undefined && typeof message !== 'string') return 'message must be text.';
	if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === 'string'))) return 'ids must be an array of texts.';
	for (const flag of ['afterApply', 'echoRequest'] as const) {
		if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean') return `${flag} must be true or false.`;
	}
	if (sizeBytes !== undefined && !isWholeIn(sizeBytes, 0, MAX_HUGE_BODY_BYTES)) {
		return `sizeBytes must be a whole number of bytes from 0 to ${MAX_HUGE_BODY_BYTES} (256 MiB).`;
	}
	return undefined;
}

export class FaultInjector {
	private faults: Fault[] = [];
	private lastId = 0;
	private readonly rng: Rng;

	constructor(seed: number) {
		this.rng = new Rng(hashSeed(seed, 'faults'));
	}

	inject(spec: FaultSpec): Fault {
		if (!(FAULT_KINDS as readonly string[]).includes(spec.kind)) {
			throw new Error(`Unknown fault kind "${spec.kind}"; expected one of ${FAULT_KINDS.join(', ')}.`);
		}
		const problem = specProblem(spec);
		if (problem) throw new Error(problem);
		const fault: Fault = { times: Infinity, ...spec, id: ++this.lastId, applied: 0 };
		this.faults.push(fault);
		return fault;
	}

	remove(id: number): void {
		this.faults = this.faults.filter((fault) => fault.id !== id);
	}

	clear(): void {
		this.faults = [];
	}

	list(): Fault[] {
		return [...this.faults];
	}

	/** The first active fault matching the request, counted as applied; undefined when none strikes. */
	take(request: RequestFacts): Fault | undefined {
		const fault = this.faults.find((candidate) => matches(candidate, request) && this.strikes(candidate));
		if (!fault) return undefined;
		fault.applied++;
		if (fault.applied >= (fault.times ?? Infinity)) this.remove(fault.id);
		return fault;
	}

	private strikes(fault: Fault): boolean {
		return fault.probability === undefined || this.rng.chance(fault.probability);
	}
}

function matches(fault: Fault, request: RequestFacts): boolean {
	const { method, path } = fault.match ?? {};
	if (method && method.toUpperCase() !== request.method.toUpperCase()) return false;
	if (path instanceof RegExp) return path.test(request.path);
	if (typeof path === 'string') return path === request.path || path === request.routePath;
	return true;
}

export function strikesAfterProcessing(fault: Fault): boolean {
	return fault.kind === 'missingPayload' || fault.kind === 'dropListed' || fault.afterApply === true;
}

/** What the client receives instead of (or in place of) the real answer. */
export function faultOutcome(fault: Fault, realAnswer?: Answer, request?: EchoedRequest): Outcome {
	switch (fault.kind) {
		case 'reset':
			return RESET;
		case 'status':
			return statusAnswer(fault, request);
		case 'html':
			return htmlAnswer(fault.status ?? 502);
		case 'nonJson200':
			// Claims JSON but is not: the hardest case for a client's parser.
			return textAnswer(200, 'application/json; charset=utf-8', 'Service temporarily unavailable');
		case 'arrayBody':
			return jsonAnswer(200, []);
		case 'successFalse200':
			return jsonAnswer(200, { success: false, error: errorText(fault, 'Simulated failure.', request) });
		case 'missingPayload':
			return withoutPayload(realAnswer);
		case 'hugeBody':
			return hugeAnswer(fault.sizeBytes ?? 20 * 1024 * 1024);
		case 'dropListed':
			return jsonAnswer(realAnswer?.status ?? 200, withoutListed(realAnswer?.json, new Set(fault.ids)));
		case 'slow':
			return realAnswer ?? jsonAnswer(500, { success: false, error: 'No answer to delay.' });
	}
}

function statusAnswer(fault: Fault, request?: EchoedRequest): Answer {
	const status = fault.status ?? 503;
	const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
	const error = errorText(fault, status === 429 ? 'Too many requests.' : `${STATUS_CODES[status] ?? 'Error'}.`, request);
	return jsonAnswer(status, { success: false, error }, headers);
}

function errorText(fault: Fault, fallback: string, request?: EchoedRequest): string {
	const text = fault.message ?? fallback;
	if (!fault.echoRequest || !request) return text;
	return `${text} Request: Authorization: ${request.authorization ?? '(none)'}; body: ${request.body}`;
}

function htmlAnswer(status: number): Answer {
	const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
	return textAnswer(
		status,
		'text/html; charset=utf-8',
		`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
	);
}

function withoutPayload(answer: Answer | undefined): Answer {
	const json = answer?.json;
	const envelopeOnly =
		typeof json === 'object' && json !== null && !Array.isArray(json)
			? Object.fromEntries(Object.entries(json).filter(([key]) => (ENVELOPE_KEYS as readonly string[]).includes(key)))
			: { success: true, error: null };
	return jsonAnswer(answer?.status ?? 200, envelopeOnly);
}

/** The answer with every list entry named in `ids` left out: an object with that `id`, or that id itself. */
function withoutListed(value: unknown, ids: Set<string>): unknown {
	if (Array.isArray(value)) {
		const listed = (entry: unknown) => ids.has(typeof entry === 'object' && entry !== null ? String((entry as { id?: unknown }).id) : String(entry));
		return value.filter((entry) => !listed(entry)).map((entry) => withoutListed(entry, ids));
	}
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withoutListed(entry, ids)]));
}

function hugeAnswer(sizeBytes: number): Answer {
	const head = '{"success":true,"error":null,"padding":"';
	const tail = '"}';
	const padding = 'x'.repeat(Math.max(0, sizeBytes - head.length - tail.length));
	return textAnswer(200, 'application/json; charset=utf-8', `${head}${padding}${tail}`);
}
