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
