/** Keeps secrets out of what the transport lets users see. Pure. */

import { USER_WRITE_ONLY_FIELDS } from '../wire';

export const REDACTED = '[redacted]';

// A bearer credential quoted back by the service, whoever issued it.
const BEARER = /(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

/** The fields a user writes a secret into: a password. */
const SECRET_FIELDS = new Set<string>(USER_WRITE_ONLY_FIELDS.map((field) => field.toLowerCase()));

/** The vendor (ASP.NET) reads a property name or JSON Patch path in any case: `/Password` sets the password too. */
const isSecretField = (name: string) => SECRET_FIELDS.has(name.toLowerCase());

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
	if (typeof path === 'string' && isSecretField(path.replace(/^\//, '')) && typeof value === 'string') found.push(value);
	for (const [key, field] of Object.entries(body)) {
		if (isSecretField(key)) {
			if (typeof field === 'string') found.push(field);
		} else {
			found.push(...suppliedSecrets(field, depth + 1));
		}
	}
	return found.filter((secret) => secret !== '');
}

/** How many times over a text may have been JSON-quoted (a body, quoted in a message, quoted in an answer). */
const MAX_QUOTING = 3;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A JSON string's content for `text`, as JSON.stringify writes it: one more level of quoting. */
const quoted = (text: string) => JSON.stringify(text).slice(1, -1);

/** `text` as \u escapes of its UTF-16 units, hexadecimal in lower or upper case (Python, .NET). */
function unicodeEscapes(text: string): string[] {
	const escaped = text
		.split('')
		.map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
		.join('');
	return [escaped, escaped.toUpperCase().replace(/\\U/g, '\\u')];
}

/** `char` percent-encoded as UTF-8, in either case, and a space as a form writes it. */
function percentEncodings(char: string): string[] {
	const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
	return [encoded, encoded.toUpperCase(), ...(char === ' ' ? ['+'] : [])];
}

/**
 * Every way one character of a secret may stand in a text quoted `level` times over: itself as
 * JSON.stringify escapes it, or, from any level on, a \u escape (what .NET's and Python's
 * encoders write for +, &, ', " and anything not ASCII) or \/ (PHP) quoted plainly from there;
 * and percent-encoded. Each form is an exact text, and no two start alike but for their length:
 * so the search never backtracks over a run of backslashes, whatever the secret and the answer.
 */
function charForms(char: string, level: number): string[] {
	if (/^[A-Za-z0-9]$/.test(char)) return [char];
	let forms = [char];
	for (let depth = 1; depth <= level; depth++) {
		forms = [...forms.map(quoted), ...unicodeEscapes(char), ...(char === '/' ? ['\\/'] : [])];
	}
	return [...new Set([...forms, ...percentEncodings(char)])];
}

/** A secret as a text quoted `level` times over, character by character, writes it. */
function quotedSecretPattern(secret: string, level: number): string {
	return Array.from(secret, (char) => {
		const forms = charForms(char, level);
		return forms.length === 1 ? escapeRegExp(forms[0]) : `(?:${forms.map(escapeRegExp).join('|')})`;
	}).join('');
}

/** Shorter values are taken out only where they stand as a value: bare, they would blank out ordinary words. */
const MIN_BARE_LENGTH = 6;

/** What opens a value: a quote (however escaped or encoded) or a form field's `=`. */
const OPENS_VALUE = "(?<=[\"'`=]|\\\\u002[27]|%2[27])";
/** What closes it: a quote (however escaped or encoded), the next form field, or the end of the text. */
const CLOSES_VALUE = "(?=\\\\*[\"'`]|\\\\+u002[27]|%2[27]|&|$)";

/**
 * What finds a secret in a text, however many times quoted. A short one is found only where it
 * stands as a value (quoted, or a form field's): bare, it would blank out ordinary words.
 */
function secretPattern(secret: string): RegExp {
	const levels = [...new Set(Array.from({ length: MAX_QUOTING + 1 }, (_, level) => quotedSecretPattern(secret, level)))];
	const anyLevel = `(?:${levels.join('|')})`;
	return new RegExp(secret.length >= MIN_BARE_LENGTH ? anyLevel : `${OPENS_VALUE}${anyLevel}${CLOSES_VALUE}`, 'g');
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
