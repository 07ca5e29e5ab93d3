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
