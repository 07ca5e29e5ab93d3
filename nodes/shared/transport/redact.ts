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

/** `text` standing as a JSON string, whose closing quote may itself be escaped (a quoted body inside a quoted text). */
function quoted(text: string): RegExp {
	return new RegExp(`"${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=\\\\*")`, 'g');
}

/** JSON quoting a body that quotes a body: a request echoed inside an error text inside an answer. */
const QUOTING_LEVELS = 2;

/** A secret as sent, and as each level of JSON quoting writes it (`"` and `\` escaped again). */
function quotedForms(secret: string): Set<string> {
	const forms = new Set([secret]);
	for (let level = 0, form = secret; level < QUOTING_LEVELS; level++) {
		form = JSON.stringify(form).slice(1, -1);
		forms.add(form);
	}
	return forms;
}

/**
 * The text with every known secret (the API key, each token seen, the passwords sent) and any
 * quoted bearer token replaced, each as sent and as JSON quotes it.
 */
export function redact(text: string, secrets: ReadonlyArray<unknown>): string {
	let result = text.replace(BEARER, `$1${REDACTED}`);
	for (const secret of secrets) {
		if (typeof secret !== 'string' || secret === '') continue;
		for (const form of quotedForms(secret)) {
			result = form.length >= MIN_BARE_LENGTH ? result.split(form).join(REDACTED) : result.replace(quoted(form), `"${REDACTED}`);
		}
	}
	return result;
}

/**
 * Plain JSON data (a node and its parameters, as an error carries it into n8n's run data and log)
 * with the secrets taken out of every text in it; a text that is a secret, however short, entirely.
 */
export function redactTexts<T>(value: T, secrets: ReadonlyArray<unknown>): T {
	return redactTextsIn(value, secrets) as T;
}

function redactTextsIn(value: unknown, secrets: ReadonlyArray<unknown>): unknown {
	if (typeof value === 'string') return secrets.includes(value) ? REDACTED : redact(value, secrets);
	if (Array.isArray(value)) return value.map((entry) => redactTextsIn(entry, secrets));
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, redactTextsIn(entry, secrets)]));
}
