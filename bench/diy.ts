/**
 * The DIY alternative: what a user builds without this package — n8n's own HTTP Request node
 * (n8n-nodes-base, loaded from the real-n8n e2e install of the n8n whose core the bench runs on,
 * rather than a dev dependency, which would add hundreds of MB to every `npm ci`), after an HTTP
 * Request that fetches the token.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { INode, INodeType, IRun } from 'n8n-workflow';

import { DEMO_API_KEY, DEMO_USER_NAME } from '../sandbox/server';
import { TOKEN_PATH } from '../nodes/shared/wire';
import { ITEMS_NODE_TYPE, registerNodeType, type Engine } from '../test/support/engine';
import { n8nInstallDir } from './cores';

export const HTTP_REQUEST_TYPE = 'n8n-nodes-base.httpRequest';

/** The version a new HTTP Request node gets in the loaded n8n (4.4 in n8n 2.8, 4.5 in 2.41). */
let httpRequestVersion = 0;

/** Registers n8n's HTTP Request node in the test engine; false when the n8n install is absent or unusable. */
export function loadHttpRequestNode(n8nVersion: string): { loaded: true; from: string } | { loaded: false; reason: string } {
	const dir = n8nInstallDir(n8nVersion);
	const modulePath = join(dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', 'HttpRequest', 'HttpRequest.node.js');
	if (!existsSync(join(dir, '.install-ok')) || !existsSync(modulePath)) {
		return { loaded: false, reason: `DIY: skipped (n8n ${n8nVersion} not installed; run scripts/e2e/install-n8n.sh ${n8nVersion.replace(/\.\d+$/, '')})` };
	}
	try {
		const load = createRequire(join(dir, 'package.json'));
		const { HttpRequest } = load(modulePath) as {
			HttpRequest: new () => { nodeVersions: Record<number, INodeType>; description: { defaultVersion?: number } };
		};
		const versioned = new HttpRequest();
		httpRequestVersion = versioned.description.defaultVersion ?? 0;
		const node = versioned.nodeVersions[httpRequestVersion];
		if (!node) return { loaded: false, reason: `DIY: skipped (HTTP Request node has no version ${httpRequestVersion})` };
		registerNodeType(HTTP_REQUEST_TYPE, node);
		return { loaded: true, from: modulePath };
	} catch (error) {
		return { loaded: false, reason: `DIY: skipped (loading n8n's HTTP Request node failed: ${(error as Error).message})` };
	}
}

const TOKEN_NODE = 'Get token';
const ROWS_NODE = 'Rows';
export const DIY_NODE = 'Last location';

/**
 * Start → "Get token" (POST the user name and API key) → "Rows" (the device ids, as a sheet or a
 * list node would hand them over) → "Last location" (GET per item, `Authorization: Bearer` from the
 * token node). Every node as n8n creates it, default options: no batching, no retry.
 */
export function diyWorkflow(engine: Engine, baseUrl: string, rows: Array<{ deviceId: string }>): INode[] {
	const http = (name: string, parameters: INode['parameters'], x: number): INode => {
		const node = engine.node(name, HTTP_REQUEST_TYPE, parameters, [x, 0]);
		delete node.credentials;
		return { ...node, typeVersion: httpRequestVersion };
	};
	return [
		http(
			TOKEN_NODE,
			{
				method: 'POST',
				url: `${baseUrl}${TOKEN_PATH}`,
				sendBody: true,
				contentType: 'json',
				bodyParameters: {
					parameters: [
						{ name: 'userName', value: DEMO_USER_NAME },
						{ name: 'apiKey', value: DEMO_API_KEY },
					],
				},
				options: {},
			},
			200,
		),
		engine.node(ROWS_NODE, ITEMS_NODE_TYPE, { items: rows as never }, [400, 0]),
		http(
			DIY_NODE,
			{
				method: 'GET',
				url: `=${baseUrl}/api/devices/{{ $json.deviceId }}/lastLocation`,
				sendHeaders: true,
				headerParameters: {
					parameters: [{ name: 'Authorization', value: `=Bearer {{ $('${TOKEN_NODE}').first().json.token }}` }],
				},
				options: {},
			},
			600,
		),
	];
}

export interface DiyOutcome {
	/** Output items of the HTTP Request node that carry an answer (no error). */
	completed: number;
	errorItems: number;
	/** The error that stopped the workflow, if any. */
	error?: string;
}

export function diyOutcome(run: IRun): DiyOutcome {
	const task = run.data.resultData.runData[DIY_NODE]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	// The vendor's envelope carries `error: null` on success; an error item carries the failure.
	const errorItems = items.filter((item) => item.json.error !== undefined && item.json.error !== null).length;
	const error = task?.error ?? run.data.resultData.error;
	return { completed: items.length - errorItems, errorItems, error: error ? String(error.message) : undefined };
}
