/**
 * A replay of the vendor's documented API: each documented route answers with the vendor's own
 * example file, byte for byte, at the status a test chooses. It knows nothing of the sandbox or of
 * the nodes' endpoint table: its routes are the vendor's doc pages, written out below.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const VENDOR_DIR = join(__dirname, 'vendor');

/** Each doc page (the file names' prefix, as index.json spells it) and the route it documents. */
export const PAGE_ROUTES: Record<string, string> = {
	'authentication.md': 'POST /api/Auth/Token',
	'devices_api/get__api_devices.md': 'GET /api/devices',
	'devices_api/get__api_devices_deviceid.md': 'GET /api/devices/{deviceId}',
	'devices_api/get__api_devices_deviceid_lastlocation.md': 'GET /api/devices/{deviceId}/lastLocation',
	'devices_api/post__api_devices_deviceid_alerts.md': 'POST /api/devices/{deviceId}/alerts',
	'devices_api/post__api_devices_deviceid_locations.md': 'POST /api/devices/{deviceId}/locations',
	'devices_api/post__api_devices_deviceid_sendcommand.md': 'POST /api/devices/{deviceId}/sendCommand',
	'groups_api/get__api_groups.md': 'GET /api/groups',
	'groups_api/post__api_groups.md': 'POST /api/groups',
	'groups_api/get__api_groups_groupid.md': 'GET /api/groups/{groupId}',
	'groups_api/put__api_groups_groupid.md': 'PUT /api/groups/{groupId}',
	'groups_api/patch__api_groups_groupid.md': 'PATCH /api/groups/{groupId}',
	'groups_api/delete__api_groups_groupid.md': 'DELETE /api/groups/{groupId}',
	'users_api/get__api_users.md': 'GET /api/users',
	'users_api/post__api_users.md': 'POST /api/users',
	'users_api/get__api_users_countries.md': 'GET /api/users/countries',
	'users_api/get__api_users_timezones.md': 'GET /api/users/timeZones',
	'users_api/get__api_users_userid.md': 'GET /api/users/{userId}',
	'users_api/put__api_users_userid.md': 'PUT /api/users/{userId}',
	'users_api/patch__api_users_userid.md': 'PATCH /api/users/{userId}',
	'users_api/delete__api_users_userid.md': 'DELETE /api/users/{userId}',
};

export interface IndexEntry {
	file: string;
	doc: string;
	lines: string;
	heading: string;
}

export const vendorIndex = (): IndexEntry[] => JSON.parse(readFileSync(join(VENDOR_DIR, 'index.json'), 'utf8'));

export const vendorFiles = (): string[] => readdirSync(VENDOR_DIR).filter((file) => file !== 'index.json').sort();

export const vendorBytes = (file: string): Buffer => readFileSync(join(VENDOR_DIR, file));

export const vendorJson = <T = Record<string, unknown>>(file: string): T => JSON.parse(vendorBytes(file).toString('utf8'));

/** The route a file's doc page documents, e.g. `GET /api/devices/{deviceId}`. */
export function routeOf(file: string): string {
	const entry = vendorIndex().find((candidate) => candidate.file === file);
	if (!entry) throw new Error(`${file} is not in index.json.`);
	const route = PAGE_ROUTES[entry.doc];
	if (!route) throw new Error(`No route for the doc page ${entry.doc}.`);
	return route;
}

export interface ReplayedRequest {
	method: string;
	path: string;
	route: string | null;
	headers: IncomingHttpHeaders;
	/** The parsed JSON body; undefined when there was none. */
	body: unknown;
}

interface Reply {
	file: string;
	status: number;
}

const TOKEN_ROUTE = 'POST /api/Auth/Token';
const TOKEN_EXAMPLE = 'authentication.successful-response-example.json';

/** Example files a test has served; the suite checks that every file was used. */
export const servedFiles = new Set<string>();

export class ReplayServer {
	readonly requests: ReplayedRequest[] = [];
	private readonly replies = new Map<string, Reply>();
	private server?: Server;
	url = '';

	constructor() {
		this.reset();
	}

	/** The route of the file's doc page answers with the file from now on. */
	serve(file: string, status = 200): this {
		this.replies.set(routeOf(file), { file, status });
		return this;
	}

	/** Forgets the scripted answers and the requests; the token route answers the vendor's token example. */
	reset(): void {
		this.replies.clear();
		this.requests.length = 0;
		this.replies.set(TOKEN_ROUTE, { file: TOKEN_EXAMPLE, status: 200 });
	}

	/** The requests that reached one route, token calls aside unless asked for. */
	requestsTo(route: string): ReplayedRequest[] {
		return this.requests.filter((request) => request.route === route);
	}

	async start(): Promise<void> {
		this.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const method = request.method ?? 'GET';
				const path = (request.url ?? '/').split('?')[0];
				const route = matchRoute(method, path);
				const raw = Buffer.concat(chunks).toString('utf8');
				this.requests.push({ method, path, route, headers: request.headers, body: raw === '' ? undefined : JSON.parse(raw) });
				const reply = route ? this.replies.get(route) : undefined;
				if (!reply) {
					response.writeHead(404, { 'content-type': 'application/json' });
					response.end(JSON.stringify({ success: false, error: `Replay: nothing scripted for ${method} ${path}.` }));
					return;
				}
				servedFiles.add(reply.file);
				const bytes = vendorBytes(reply.file);
				response.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
				response.end(bytes);
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		await new Promise<void>((resolve) => {
			this.server?.close(() => resolve());
			this.server?.closeAllConnections();
		});
	}
}

/** Exact documented spelling; each `{param}` fills one non-empty path segment. */
function matchRoute(method: string, path: string): string | null {
	for (const route of new Set(Object.values(PAGE_ROUTES))) {
		const [routeMethod, template] = route.split(' ');
		if (routeMethod !== method) continue;
		const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
		// A literal segment (`countries`) wins over a parameter (`{userId}`).
		if (pattern.test(path) && !(template.endsWith('{userId}') && /\/api\/users\/(countries|timeZones)$/.test(path))) return route;
	}
	return null;
}
