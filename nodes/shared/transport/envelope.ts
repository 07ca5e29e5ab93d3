import { ENVELOPE_KEYS, type Endpoint, type Envelope, type PayloadShape } from '../wire';

/** An answer the service sent but the node cannot use; carries the vendor's text when there is one. */
export class EnvelopeError extends Error {
	constructor(
		message: string,
		readonly vendorMessage?: string,
	) {
		super(message);
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasId(resource: Record<string, unknown>): boolean {
	const { id } = resource;
	return (typeof id === 'string' && id !== '') || typeof id === 'number';
}

const SHAPE_CHECKS: Record<PayloadShape, (value: unknown) => boolean> = {
	list: Array.isArray,
	object: isObject,
	nullableObject: (value) => value === null || isObject(value),
	map: isObject,
	text: (value) => typeof value === 'string',
};

const SHAPE_NAMES: Record<PayloadShape, string> = {
	list: 'a list',
	object: 'an object',
	nullableObject: 'an object or null',
	map: 'an object',
	text: 'a text',
};

/** The vendor's `error` text of a failed answer, if the body has one. */
export function vendorMessage(body: unknown): string | undefined {
	if (!isObject(body)) return undefined;
	const { error } = body as Partial<Envelope>;
	return typeof error === 'string' && error.trim() !== '' ? error.trim() : undefined;
}

/**
 * Strips the envelope and returns the resource. `success: false` is a failure whatever the HTTP
 * status; a single group or user comes flat beside the envelope, or wrapped under its own key.
 */
export function unwrapEnvelope(endpoint: Endpoint, body: unknown): unknown {
	if (!isObject(body)) {
		throw new EnvelopeError(
			`The tracking API answered ${Array.isArray(body) ? 'a list' : 'something other than a JSON object'} where an object was expected`,
		);
	}
	if ((body as Partial<Envelope>).success !== true) {
		const text = vendorMessage(body);
		throw new EnvelopeError(
			text ?? 'The tracking API reported a failure without a reason',
			text,
		);
	}
	const { payload } = endpoint;
	switch (payload.kind) {
		case 'none':
			return undefined;
		case 'flat': {
			const wrapped = body[payload.wrapperKey];
			const resource = isObject(wrapped)
				? wrapped
				: Object.fromEntries(Object.entries(body).filter(([key]) => !(ENVELOPE_KEYS as readonly string[]).includes(key)));
			// Whatever else sits beside the envelope (a proxy's padding, a debug field) is no group or user.
			if (!hasId(resource)) {
				throw new EnvelopeError(`The tracking API answered success without the ${payload.wrapperKey} (no "id" in the answer)`);
			}
			return resource;
		}
		case 'keyed': {
			if (!(payload.key in body)) {
				throw new EnvelopeError(`The tracking API answer has no "${payload.key}"`);
			}
			const value = body[payload.key];
			if (!SHAPE_CHECKS[payload.shape](value)) {
				throw new EnvelopeError(
					`The tracking API answer's "${payload.key}" is not ${SHAPE_NAMES[payload.shape]}`,
				);
			}
			return value;
		}
	}
}

export interface UsageCounters {
	/** Calls the account made, all time. */
	apiUsage: number;
	/** Calls the account made today (the service's day). */
	apiDailyUsage: number;
}

/** The account's usage counters that every answer carries beside the payload; undefined without them. */
export function usageCounters(body: unknown): UsageCounters | undefined {
	if (!isObject(body)) return undefined;
	const { apiUsage, apiDailyUsage } = body as Partial<Envelope>;
	if (typeof apiUsage !== 'number' || typeof apiDailyUsage !== 'number') return undefined;
	return { apiUsage, apiDailyUsage };
}
