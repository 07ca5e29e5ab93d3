/**
 * What a failed request becomes: a RequestFailure told from whatever was thrown or answered, with
 * its cause declared the way n8n reads it, and a NodeApiError that carries no secret.
 *
 * The cause is declared as a plain `failure` object on the thrown error (n8n-workflow's `Failure`,
 * read by the durable scheduler's poll backoff since n8n 2.41). Written out here rather than
 * imported, so that n8n 2.8, which has no such type, loads the package too; older n8n versions
 * ignore the property.
 */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { USER_WRITE_ONLY_FIELDS } from '../wire';
import { EnvelopeError, vendorMessage } from './envelope';

/** What went wrong with one request, stripped of everything that could carry a secret. */
export interface RequestFailure {
	message: string;
	status?: number;
	/** A transport-level failure: reset, refused, timeout. */
	networkCode?: string;
	/** The token exchange itself was refused (bad user name or API key): no retry with the same credential can help. */
	tokenRefused?: boolean;
	description?: string;
	retryAfterMs?: number;
	/** The token exchange failed, so the request was never sent. */
	tokenExchangeFailed?: boolean;
	/** A poll's time budget ran out before the request was sent or answered. */
	outOfTime?: boolean;
	/** The service's own `error` text, when the answer had one. */
	vendorText?: string;
}

export type DeclaredFailure =
	| { cause: 'rate-limited' | 'temporarily-unavailable'; retryAfterMs?: number }
	| { cause: 'credential-invalid' | 'configuration-invalid' | 'node-defect' };

/**
 * The HTTP reason phrases the vendor's envelope carries as its `error` text, whatever the status it
 * came with (`{success: false, error: "Internal Server Error"}` at HTTP 200), for the causes they declare.
 */
const STATUS_BY_REASON: Record<string, number> = {
	'too many requests': 429,
	'internal server error': 500,
	'bad gateway': 502,
	'service unavailable': 503,
	'gateway timeout': 504,
};

/** The status the failure is: the answer's HTTP status, else the one its envelope's text names. */
function statusOf(failure: RequestFailure): number | undefined {
	if (failure.status !== undefined) return failure.status;
	const reason = failure.vendorText?.trim().replace(/\.$/, '').toLowerCase();
	return reason === undefined ? undefined : STATUS_BY_REASON[reason];
}

/** The cause of a failed request, when it is one a scheduler can act on; undefined otherwise. */
export function declaredFailure(failure: RequestFailure): DeclaredFailure | undefined {
	if (failure.tokenRefused === true) return { cause: 'credential-invalid' };
	// What the service asked, not the client's own capped wait: the scheduler waits as asked.
	const wait = failure.retryAfterMs !== undefined && failure.retryAfterMs > 0 ? { retryAfterMs: failure.retryAfterMs } : {};
	const status = statusOf(failure);
	if (status === 429) return { cause: 'rate-limited', ...wait };
	if ((status !== undefined && status >= 500) || failure.networkCode !== undefined || failure.outOfTime === true) {
		return { cause: 'temporarily-unavailable', ...wait };
	}
	return undefined;
}

/**
 * The `failure` option of n8n's NodeApiError and NodeOperationError (n8n-workflow 2.37+), for their
 * options object; hosts whose errors know no such option ignore it, and {@link declare} sets the
 * plain property there. Typed loosely: the n8n-workflow this package builds against predates it.
 */
export function withFailureOption(failure: DeclaredFailure | undefined): object {
	return failure === undefined ? {} : { failure };
}

/**
 * `error` with `failure` set as a plain, enumerable property (what n8n looks for along the error's
 * chain): on hosts whose errors took the `failure` option this is the value they hold already.
 */
export function declare<E extends object>(error: E, failure: DeclaredFailure | undefined): E {
	if (failure !== undefined) Object.assign(error, { failure });
	return error;
}

export function failureOf(error: unknown): DeclaredFailure | undefined {
	const failure = (error as { failure?: unknown } | null)?.failure;
	return typeof failure === 'object' && failure !== null && typeof (failure as { cause?: unknown }).cause === 'string'
		? (failure as DeclaredFailure)
		: undefined;
}

// The token exchange runs in the credential's preAuthentication, and n8n rewraps whatever that throws
// in a NodeApiError that keeps the message, the `description` and `httpCode` but drops the error's
// class; those fields carry what describeFailure needs to know.

export const TOKEN_REFUSED = 'The tracking API refused the user name or API key.';

/**
 * The service refused the user name or API key; the message is the vendor's own text, which is
 * what n8n's credential test shows. No `httpCode`: with one, n8n would replace the message with its
 * generic text for the status.
 */
export class TokenRequestError extends Error {
	readonly description = TOKEN_REFUSED;
}

/**
 * A token call the service could not serve now (quota, outage): the transport may retry it. The
 * wait its Retry-After asked for rides in the description, which n8n's rewrap keeps (see above).
 */
export class TokenUnavailableError extends Error {
	readonly httpCode: string;

	readonly description?: string;

	constructor(status: number, retryAfterMs?: number) {
		super(`The token request answered ${status}`);
		this.httpCode = String(status);
		if (retryAfterMs !== undefined) this.description = `The token endpoint asks to be called again in ${retryAfterMs / 1000} s (Retry-After).`;
	}
}

const RETRY_AFTER_TEXT = /asks to be called again in (\d+(?:\.\d+)?) s \(Retry-After\)/;

/** The wait a TokenUnavailableError carries, also after n8n rewrapped it; undefined without one. */
function tokenRetryAfterMs(error: { description?: unknown }): number | undefined {
	const said = typeof error.description === 'string' ? RETRY_AFTER_TEXT.exec(error.description) : null;
	return said === null ? undefined : Math.round(Number(said[1]) * 1000);
}

/** No answer to the token request (refused connection, unknown host, timeout): says where it went. */
export class TokenUnreachableError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

/** What a user reads after a redirect that was not followed: `what` the redirect would have carried off. */
function redirectHint(what: string): string {
	return `Redirects are not followed, so ${what} went only to the Base URL. If the service has moved (or answers only over https://), set the Base URL in the credential to its new address.`;
}

export const TOKEN_REDIRECTED = redirectHint('the API key');

/**
 * The token request was answered with a redirect, which is not followed: a 307/308 would send the
 * user name and API key to wherever it points. No `httpCode`, as for TokenRequestError.
 */
export class TokenRedirectError extends Error {
	readonly description = TOKEN_REDIRECTED;

	constructor(status: number, target: string) {
		super(`The token request was answered ${status}, redirecting to ${target}: not followed`);
	}
}

interface ErrorLink {
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	description?: unknown;
	httpCode?: unknown;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	cause?: unknown;
	/** Where n8n's NodeError keeps what it wrapped when that was not recognised as an Error. */
	errorResponse?: unknown;
}

/** An error and what it wraps, outermost first: n8n wraps the HTTP client's error in a NodeApiError. */
function errorChain(error: unknown): ErrorLink[] {
	const chain: ErrorLink[] = [];
	for (let link = error; typeof link === 'object' && link !== null && !chain.includes(link); ) {
		chain.push(link);
		link = (link as ErrorLink).cause ?? (link as ErrorLink).errorResponse;
	}
	return chain;
}

/** The link that carries the facts: the answer, or the token exchange's own error; else the innermost. */
function factsOf(chain: ErrorLink[]): ErrorLink {
	const carriesFacts = (link: ErrorLink) => link.response || link instanceof TokenRequestError || link instanceof TokenRedirectError;
	return chain.find(carriesFacts) ?? chain[chain.length - 1] ?? {};
}

/** How many links of a chain are searched for the texts of a network or TLS failure. */
const TEXT_DEPTH = 5;

/** The codes and messages of an error and what it wraps, joined for matching. */
function errorTexts(chain: ErrorLink[]): string {
	return chain
		.slice(0, TEXT_DEPTH)
		.flatMap(({ code, message, messages }) => [String(code ?? ''), String(message ?? ''), ...(Array.isArray(messages) ? messages.map(String) : [])])
		.join(' | ');
}

const NETWORK_MESSAGES: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'no answer came within the timeout',
	ETIMEDOUT: 'no answer came within the timeout',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be resolved',
	EPIPE: 'the connection was closed while sending',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection timed out',
};

// n8n's NodeApiError keeps only the wrapped error's messages, not its code, so the code is
// recognised in the text (e.g. "read ECONNRESET", "timeout of 30000ms exceeded").
// This module's own messages are recognised too: n8n may rewrap an error said here, class dropped.
const NETWORK_PATTERNS: Array<[RegExp, string]> = [
	[/ECONNRESET|socket hang up|connection was reset/i, 'ECONNRESET'],
	[/ECONNREFUSED|connection was refused/i, 'ECONNREFUSED'],
	[/ETIMEDOUT|ECONNABORTED|timeout of \d+ms exceeded|timed? ?out/i, 'ETIMEDOUT'],
	[/ENOTFOUND|host name was not found/i, 'ENOTFOUND'],
	[/EAI_AGAIN|could not be resolved/i, 'EAI_AGAIN'],
	[/EPIPE|closed while sending/i, 'EPIPE'],
];

const SAID_HERE = /Could not get an answer from the tracking API at [^|]*/;

/** What to check when nothing answers; also how a rewrapped "unreachable" error is recognised. */
const UNREACHABLE_HINT =
	'Check the Base URL in the credential (scheme, host, port and any path prefix), and that n8n can reach that address (firewall, proxy, VPN).';

const TIMEOUT_HINT = 'The service did not answer within the Timeout set under Request Settings: try again later, or raise it.';

type NetworkFailure = Required<Pick<RequestFailure, 'networkCode' | 'message' | 'description'>>;

/** An address fit for an error message: no user info, query or fragment. */
export function displayUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return url.replace(/[?#].*$/, '');
	}
}

function networkFailureIn(texts: string, url: string | undefined): NetworkFailure | undefined {
	const match = NETWORK_PATTERNS.find(([pattern]) => pattern.test(texts));
	if (!match) return undefined;
	const [, code] = match;
	const where = url === undefined ? '' : ` at ${displayUrl(url)}`;
	return {
		networkCode: code,
		// Where the failure was first said (the token URL, say), that address stays.
		message: SAID_HERE.exec(texts)?.[0].trim() ?? `Could not get an answer from the tracking API${where}: ${NETWORK_MESSAGES[code]}`,
		description: code === 'ETIMEDOUT' ? TIMEOUT_HINT : UNREACHABLE_HINT,
	};
}

/** The network failure in an error, said with the address tried and what to check; undefined if it is none. */
export function describeNetworkFailure(error: unknown, url?: string): NetworkFailure | undefined {
	return networkFailureIn(errorTexts(errorChain(error)), url);
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid.',
	401: 'The token was refused even after a new one was fetched: check the user name and API key.',
	403: 'The account is not allowed to do this.',
	404: 'Nothing exists at this id: check it, or whether it was deleted.',
	408: 'The service timed out waiting for the request.',
	409: 'The request conflicts with what the service holds (for example an e-mail already in use).',
	413: 'The request was too large for the service: shorten the texts sent.',
	414: 'The request address was too long for the service: check the ids sent.',
	415: 'The service did not accept the request format.',
	429: "The account's request quota was exceeded and retries did not get through: lower the node's concurrency or set a requests-per-minute cap.",
	431: 'The request address or headers were too large for the service: check the ids sent.',
	500: 'The service failed to process the request.',
	502: 'A gateway in front of the service got no valid answer from it: try again later.',
	503: 'The service is unavailable: try again later.',
	504: 'A gateway in front of the service gave up waiting for it: try again later.',
};

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(header: unknown, now: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A non-2xx answer: its status, the vendor's text, and when to come back. */
export function describeHttpFailure(
	status: number,
	body: unknown,
	headers: Record<string, unknown> = {},
	now = Date.now(),
): RequestFailure {
	const text = vendorMessage(body);
	const what = text
		? `: ${text}`
		: typeof body === 'string' && /^\s*</.test(body)
			? ' with an HTML page instead of JSON (often a proxy or gateway error)'
			: ' without saying why';
	return {
		status,
		vendorText: text,
		retryAfterMs: parseRetryAfter(headers['retry-after'], now),
		message: `The tracking API answered ${status}${what}`,
		description: STATUS_HINTS[status],
	};
}

/**
 * Where a redirect answer points, resolved against the address asked and fit for a message (no user
 * info, query or fragment); undefined when the answer is no redirect (not 3xx, or no Location).
 */
export function redirectTarget(status: number, headers: Record<string, unknown> | undefined, requestUrl: string): string | undefined {
	if (status < 300 || status > 399) return undefined;
	const header = headers?.location;
	const location = Array.isArray(header) ? header[0] : header;
	if (typeof location !== 'string' || location.trim() === '') return undefined;
	try {
		return displayUrl(new URL(location.trim(), requestUrl).href);
	} catch {
		return displayUrl(location.trim());
	}
}

/** Followed, a redirect would carry the token (n8n copies it to any host) and a 307/308 the body too. */
const REDIRECT_HINT = redirectHint('the token and the request');

/** A redirect answer to an API call, `target` where it pointed: not followed. */
export function describeRedirect(status: number, target: string): RequestFailure {
	return { status, message: `The tracking API answered ${status}, redirecting to ${target}: not followed`, description: REDIRECT_HINT };
}

/**
 * A 404 names the ids the request was for: the vendor says only "Device not found.", and in a run
 * of many items the user cannot tell which id it meant.
 */
export function namingIds(failure: RequestFailure, params: Record<string, string | undefined>): RequestFailure {
	const named = idsNamed(params);
	if (failure.status !== 404 || named === '') return failure;
	return { ...failure, message: `${failure.message} ${named}` };
}

/** The ids a request was for, as an error names them: `(device id "d-1", group id "g-2")`; empty for none. */
export function idsNamed(params: Record<string, string | undefined>): string {
	const ids = Object.entries(params)
		.filter(([, value]) => value !== undefined)
		.map(([name, value]) => `${name.replace(/Id$/, '')} id "${value}"`);
	return ids.length === 0 ? '' : `(${ids.join(', ')})`;
}

const CERTIFICATE_TEXT = /certificate|CERT_|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i;

/** A request to `url` that threw: no answer came (network, TLS, timeout) or the token exchange failed. */
export function describeFailure(error: unknown, url?: string): RequestFailure {
	if (error instanceof EnvelopeError) {
		return { message: error.message, vendorText: error.vendorMessage };
	}
	const chain = errorChain(error);
	const inner = factsOf(chain);
	// Requests are sent with HTTP errors returned, not thrown, so a thrown status comes from the
	// credential's token exchange.
	const thrownStatus = Number(inner.httpCode ?? (error as ErrorLink | undefined)?.httpCode);
	const message = inner.message as string | undefined;
	if (inner instanceof TokenRequestError || inner.description === TOKEN_REFUSED) {
		return { status: 401, tokenRefused: true, message: `Authentication failed: ${message}` };
	}
	if (inner instanceof TokenRedirectError || inner.description === TOKEN_REDIRECTED) {
		return { message: message ?? 'The token request was redirected', description: TOKEN_REDIRECTED };
	}
	if (Number.isInteger(thrownStatus) && thrownStatus >= 400) {
		const retryAfterMs = tokenRetryAfterMs(inner);
		return {
			status: thrownStatus,
			message: `The token request answered ${thrownStatus}`,
			description: STATUS_HINTS[thrownStatus],
			...(retryAfterMs === undefined ? {} : { retryAfterMs }),
		};
	}
	if (inner.response?.status !== undefined) {
		return describeHttpFailure(inner.response.status, inner.response.data, inner.response.headers ?? {});
	}
	const texts = errorTexts(chain);
	if (CERTIFICATE_TEXT.test(texts)) {
		return {
			message: "The server's TLS certificate could not be verified",
			description:
				'If this is a test server with a self-signed certificate, turn on "Allow Unauthorized Certificates" in the credential.',
		};
	}
	return networkFailureIn(texts, url) ?? { message: `The request to the tracking API failed: ${message ?? 'unknown error'}` };
}

/** A 401 that a freshly fetched token did not cure: the service refuses the call, not the token. */
export function refusedWithFreshToken(failure: RequestFailure): RequestFailure {
	return {
		status: 401,
		message: `The tracking API refuses this call with a fresh token${failure.vendorText ? `: ${failure.vendorText}` : ''}`,
		description:
			'The user name and API key were accepted and a new token was fetched, but the service refused it again for this call: the account may not be allowed it (check its API access in the web app), or the service is failing.',
	};
}

/**
 * A NodeApiError built only from the sanitized failure, so no header or token rides along; it
 * declares its cause for n8n's scheduler.
 */
export function toNodeApiError(node: INode, failure: RequestFailure, itemIndex?: number): NodeApiError {
	const httpCode = failure.status === undefined ? undefined : String(failure.status);
	const declared = declaredFailure(failure);
	const error = new NodeApiError(node, { message: failure.message, httpCode: httpCode ?? null } as JsonObject, {
		message: failure.message,
		description: failure.description,
		httpCode,
		itemIndex,
		...withFailureOption(declared),
	});
	return declare(error, declared);
}

// What follows keeps secrets out of what the transport lets users see.

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
