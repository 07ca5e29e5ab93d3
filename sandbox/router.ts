/**
 * Routing on the raw request target. Each `/`-separated segment is percent-decoded on its own, so an
 * encoded id such as `..%2Fusers` stays one segment (device id `../users`) and can never climb into
 * another route — which is exactly what the nodes' path encoding is tested against.
 */
import { TOKEN_PATH, VENDOR_ROUTES, type HttpMethod, type PathParam, type VendorRouteName } from './vendorApi';
import { badRequest } from './apiError';

export type RouteName = VendorRouteName | 'token';

export interface Route {
	/** `METHOD /path/{param}`: the key of `stats.byRoute`. */
	key: string;
	method: HttpMethod;
	path: string;
	name: RouteName;
	segments: string[];
}

export interface RouteMatch {
	route: Route;
	params: Partial<Record<PathParam, string>>;
}

const PARAMETER = /^\{(\w+)\}$/;

const route = (name: RouteName, method: HttpMethod, path: string): Route => ({
	key: `${method} ${path}`,
	method,
	path,
	name,
	segments: path.split('/').slice(1),
});

export const ROUTES: readonly Route[] = [
	route('token', 'POST', TOKEN_PATH),
	...Object.entries(VENDOR_ROUTES).map(([name, { method, path }]) => route(name as VendorRouteName, method, path)),
];

export interface RequestTarget {
	/** The path exactly as sent, without the query. */
	rawPath: string;
	query: URLSearchParams;
}

export function splitTarget(url: string): RequestTarget {
	// An absolute-form target (`GET http://host/path`) is legal HTTP; keep only its path.
	const target = /^https?:\/\//i.test(url) ? url.replace(/^https?:\/\/[^/?#]*/i, '') : url;
	const queryAt = target.indexOf('?');
	const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
	const query = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1));
	return { rawPath: rawPath === '' ? '/' : rawPath, query };
}

/** `/a%2Fb/c` → `['a/b', 'c']`. */
export function decodeSegments(rawPath: string): string[] {
	if (!rawPath.startsWith('/')) throw badRequest('The request path must start with "/".');
	return rawPath
		.slice(1)
		.split('/')
		.map((segment) => {
			try {
				return decodeURIComponent(segment);
			} catch {
				throw badRequest(`Malformed percent-encoding in the path segment "${segment}".`);
			}
		});
}

export function basePathSegments(basePath: string): string[] {
	const trimmed = basePath.replace(/\/+$/, '');
	return trimmed === '' ? [] : decodeSegments(trimmed.startsWith('/') ? trimmed : `/${trimmed}`);
}

/** The segments after the base path, or undefined when the path is outside it. */
export function withoutBasePath(segments: string[], base: string[]): string[] | undefined {
	if (base.length > segments.length) return undefined;
	if (base.some((segment, i) => segment !== segments[i])) return undefined;
	return segments.slice(base.length);
}

export function matchRoute(method: string, segments: string[]): RouteMatch | undefined {
	let best: { match: RouteMatch; literals: number } | undefined;
	for (const route of ROUTES) {
		if (route.method !== method || route.segments.length !== segments.length) continue;
		const match = matchSegments(route, segments);
		if (!match) continue;
		const literals = route.segments.filter((segment) => !PARAMETER.test(segment)).length;
		// `/api/users/countries` must win over `/api/users/{userId}`.
		if (!best || literals > best.literals) best = { match, literals };
	}
	return best?.match;
}

function matchSegments(route: Route, segments: string[]): RouteMatch | undefined {
	const params: Partial<Record<PathParam, string>> = {};
	for (let i = 0; i < segments.length; i++) {
		const parameter = PARAMETER.exec(route.segments[i]);
		if (parameter) {
			if (segments[i] === '') return undefined;
			params[parameter[1] as PathParam] = segments[i];
		} else if (route.segments[i].toLowerCase() !== segments[i].toLowerCase()) {
			// Case-insensitive like the vendor's ASP.NET routing; ids stay case-sensitive.
			return undefined;
		}
	}
	return { route, params };
}
