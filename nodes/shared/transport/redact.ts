/** Keeps secrets out of what the transport lets users see. Pure. */

import { USER_WRITE_ONLY_FIELDS } from '../wire';

export const REDACTED = '[redacted]';

// A bearer credential quoted back by the service, whoever issued it.
const BEARER = /(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

/** Shorter values are taken out only where they stand quoted: bare, they would blank out ordinary words. */
const MIN_BARE_LENGTH = 6;

/** The fields a user writes a secret into: a password. */
const SECRET_FIELDS = new Set<string>(USER_WRITE_ONLY_FIELDS);

/** How deep a request body is searched: a user, a list of patch operations, with room to spare. */
const MAX_DEPTH = 4;

/**
 * The secrets a user put into a request body: each password, set as a field or by a JSON Patch
 * operation (`{ op: 'replace', path: '/password', value }`).
 */
export function suppliedSecrets(body: unknown, depth = 0): string[] {
	if (typeof body !== 'object' || body === null || depth > MAX_DEPTH) return [];
	if (Array.isArray(body)) return body.flatMap((entry) => suppliedSecrets(entry, depth + 1));
	const found: string[] = [];
	const { path, value } = body as { path?: unknown; value?: unknown };
	if (typeof path === 'string' && SECRET_FIELDS.has(path.replace(/^\//, '')) && typeof value === 'string') found.push(value);
	for (const [key, field] of Object.entries(body)) {
		if (SECRET_FIELDS.has(key)) {
			if (typeof field === 'string') found.push(field);
		} else {
			found.push(...suppliedSecrets(field, depth + 1));
		}
	}
	return found.filter((secret) => secret !== '');
}

/** The backslashes before a character JSON-quoted three times over; bounded, so no text makes matching slow. */
const MAX_ESCAPES = 7;

const JSON_SHORT_ESCAPES: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hexadecimal number of `digits` digits, in either case. */
function hexPattern(value: number, digits: number): string {
	return [...value.toString(16).padStart(digits, '0')].map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit)).join('');
}

/**
 * One UTF-16 unit of a secret as a service may quote it back: itself, escaped by one or more levels
 * of JSON quoting (`\"`, `\\\"`, `\n`), as a `\u` escape (what .NET's and Python's JSON encoders
 * write for `+`, `&`, `'`, `"` and anything not ASCII), or percent-encoded.
 */
function unitPattern(unit: string): string {
	if (/[A-Za-z0-9]/.test(unit)) return unit;
	const code = unit.charCodeAt(0);
	const forms = [`\\\\{0,${MAX_ESCAPES}}${escapeRegExp(unit)}`, `\\\\{1,${MAX_ESCAPES}}u${hexPattern(code, 4)}`];
	if (JSON_SHORT_ESCAPES[unit] !== undefined) forms.push(`\\\\{1,${MAX_ESCAPES}}${JSON_SHORT_ESCAPES[unit]}`);
	if (code < 0x80) forms.push(`%${hexPattern(code, 2)}`);
	return `(?:${forms.join('|')})`;
}

/**
 * What finds a secret in a text, however it was quoted. A short one is found only where it stands
 * as a JSON string (its closing quote escaped too, in a quoted body inside a quoted text): bare, it
 * would blank out ordinary words.
 */
function secretPattern(secret: string): RegExp {
	// UTF-16 units, as JSON's \u escapes count them.
	const units = secret.split('').map(unitPattern).join('');
	return new RegExp(secret.length >= MIN_BARE_LENGTH ? units : `(?<=")${units}(?=\\\\*")`, 'g');
}

function secretPatterns(secrets: ReadonlyArray<unknown>): RegExp[] {
	return secrets.filter((secret): secret is string => typeof secret === 'string' && secret !== '').map(secretPattern);
}

function redactWith(text: string, patterns: RegExp[]): string {
	return patterns.reduce((result, pattern) => result.replace(pattern, REDACTED), text.replace(BEARER, `$1${REDACTED}`));
}

/**
 * The text with every known secret (the API key, each token seen, the passwords sent), however
 * quoted, and any quoted bearer token replaced.
 */
export function redact(text: string, secrets: ReadonlyArray<unknown>): string {
	return redactWith(text, secretPatterns(secrets));
}

/**
 * Plain JSON data (a node and its parameters, as an error carries it into n8n's run data and log)
 * with the secrets taken out of every text in it; a text that is a secret, however short, entirely.
 */
export function redactTexts<T>(value: T, secrets: ReadonlyArray<unknown>): T {
	const patterns = secretPatterns(secrets);
	const redactIn = (entry: unknown): unknown => {
		if (typeof entry === 'string') return secrets.includes(entry) ? REDACTED : redactWith(entry, patterns);
		if (Array.isArray(entry)) return entry.map(redactIn);
		if (typeof entry !== 'object' || entry === null) return entry;
		return Object.fromEntries(Object.entries(entry).map(([key, field]) => [key, redactIn(field)]));
	};
	return redactIn(value) as T;
}
