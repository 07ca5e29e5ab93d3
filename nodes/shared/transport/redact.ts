/** Keeps secrets out of what the transport lets users see. Pure. */

export const REDACTED = '[redacted]';

// A bearer credential quoted back by the service, whoever issued it.
const BEARER = /(Bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi;

/** The text with every known secret (the API key, each token seen) and any quoted bearer token replaced. */
export function redact(text: string, secrets: ReadonlyArray<unknown>): string {
	let result = text.replace(BEARER, `$1${REDACTED}`);
	for (const secret of secrets) {
		// Short values would blank out ordinary words; no key or token is that short.
		if (typeof secret === 'string' && secret.length >= 6) result = result.split(secret).join(REDACTED);
	}
	return result;
}
