/** Requests that got no answer at all: which failure it was, and where it was going. Pure. */

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
export const UNREACHABLE_HINT =
	'Check the Base URL in the credential (scheme, host, port and any path prefix), and that n8n can reach that address (firewall, proxy, VPN).';

const TIMEOUT_HINT = 'The service did not answer within the Timeout set under Request Settings: try again later, or raise it.';

export interface NetworkFailure {
	networkCode: string;
	message: string;
	description: string;
}

interface ErrorTexts {
	code?: unknown;
	message?: unknown;
	messages?: unknown;
	cause?: unknown;
	/** Where n8n's NodeError keeps what it wrapped when that was not recognised as an Error. */
	errorResponse?: unknown;
}

/** The codes and messages of an error and what it wraps, joined for matching. */
export function errorTexts(error: unknown): string {
	const texts: string[] = [];
	for (let current = error as ErrorTexts | undefined, depth = 0; current && depth < 5; depth++) {
		if (typeof current !== 'object') break;
		const messages = Array.isArray(current.messages) ? current.messages : [];
		texts.push(String(current.code ?? ''), String(current.message ?? ''), ...messages.map(String));
		current = (current.cause ?? current.errorResponse) as ErrorTexts | undefined;
	}
	return texts.join(' | ');
}

/** An address fit for an error message: no user info, query or fragment. */
export function displayUrl(url: string): string {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return url.replace(/[?#].*$/, '');
	}
}

/** The network failure in an error, said with the address tried and what to check; undefined if it is none. */
export function describeNetworkFailure(error: unknown, url?: string): NetworkFailure | undefined {
	const texts = errorTexts(error);
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
