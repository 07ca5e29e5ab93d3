/** The credential's Base URL as requests read it: joined with a path, and what is wrong with one entered. */

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
