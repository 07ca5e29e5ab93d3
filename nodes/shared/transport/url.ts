import type { PathParam } from '../wire';

/** Appends an API path to a base URL that may carry a path prefix and trailing slashes. */
export function joinUrl(baseUrl: string, path: string): string {
	return `${baseUrl.trim().replace(/\/+$/, '')}${path}`;
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
