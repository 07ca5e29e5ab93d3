import type { PathParam } from '../wire';
import { displayUrl } from './network';

/** Appends an API path to a base URL that may carry a path prefix and trailing slashes. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${path}`;
}

/**
 * Why a Base URL cannot work, in words a user acts on; undefined when it can. Without it a missing
 * scheme shows only "Invalid URL".
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const entered = baseUrl.trim();
	if (/^https?:\/\/[^/]/i.test(entered) && URL.canParse(entered)) return undefined;
	return `The Base URL "${entered}" is not a web address: start it with https:// (for example https://api.plaspy.com)`;
}

/**
 * The likely mistake behind a token endpoint that does not exist: a Base URL ending in /api, which
 * the node adds itself. A service behind a proxy may really live under /api, so it is only a hint.
 */
export function baseUrlHint(baseUrl: string): string | undefined {
	return /\/api\/*$/i.test(baseUrl.trim()) ? 'The Base URL ends in /api: leave that out (for example https://api.plaspy.com), since the node adds /api/… to every call.' : undefined;
}

/**
 * Fills `{deviceId}`-style placeholders, percent-encoding each value so an id can never reach
 * another route. `.` and `..` survive encoding as dot-segments that URL parsers resolve, so they
 * are refused rather than sent.
 */
export function fillPath(template: string, params: Partial<Record<PathParam, string>>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: PathParam) => {
		const value = params[name];
		if (value === undefined || value === '') {
			throw new RangeError(`${name} is empty`);
		}
		if (value === '.' || value === '..') {
			throw new RangeError(`${name} cannot be "${value}"`);
		}
		return encodeURIComponent(value);
	});
}

/**
 * Which account a Base URL and user name reach, the way the service sees them: host case, a
 * default port, a trailing slash or space make no other account.
 */
export function accountKey(baseUrl: string, userName: string): string {
	let origin = baseUrl.trim();
	try {
		const url = new URL(origin);
		origin = `${url.protocol}//${url.host}${url.pathname}`;
	} catch {
		// Not a URL: no request will reach it either; key it as entered.
	}
	return `${origin.replace(/\/+$/, '')}\n${userName.trim().toLowerCase()}`;
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

/** What a user reads after a redirect that was not followed: `what` the redirect would have carried off. */
export function redirectHint(what: string): string {
	return `Redirects are not followed, so ${what} went only to the Base URL. If the service has moved (or answers only over https://), set the Base URL in the credential to its new address.`;
}
