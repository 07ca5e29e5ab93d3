/**
 * `npm run test:e2e:mcp`: AI agents reach the fleet through n8n's MCP Server Trigger, proven by a real
 * MCP client (the official SDK, @modelcontextprotocol/sdk) in a real n8n 2.41.1.
 *
 * In a throw-away folder (scripts/n8n/local.ts): the packed package installed as n8n installs a
 * community package, the sandbox, `n8n start` with its owner and a sandbox credential. Then
 * examples/fleet-assistant-mcp.json (MCP Server Trigger + Satellite Tracking tool nodes, parameters
 * from `$fromAI`) is created and published, and the client connects to the trigger's production URL
 * over Streamable HTTP (what a v2 MCP Server Trigger serves at its path; SSE is its other transport),
 * lists the tools, checks each one's name, description and input schema, and calls them against the
 * sandbox: answers, device names where IDs are expected, bounded lists that say when they were cut,
 * repeated writes that write once, bad arguments that come back as errors a model can read, and one
 * token exchange for the whole conversation.
 *
 * n8n 2.41.1 offers every `usableAsTool` node as `<type>Tool` for community packages too: its loader
 * (tool-generation/ai-tools.js, createAiTools) has no N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE gate, and
 * this lane runs without that variable (scripts/n8n/setup.ts hermeticEnv drops every N8N_* variable).
 *
 * Env: MCP_PRINT_TOOLS=1 prints the tools/list answer (what docs/ai-agents.md shows).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { E2E_OWNER, type Editor } from '../../n8n/editor';
import { startLocalN8n, type LocalN8n } from '../../n8n/local';
import { delay, freePort, log, seconds, signalAll } from '../../n8n/processes';
import { CREDENTIAL_TYPE, REPO, sandboxJson } from '../../n8n/setup';
import { stopAllOnSignals } from '../../n8n/workflows';
import { TOOL_CASES, checkToolList, type ToolClient, type ToolAnswer } from './checks';

const EXAMPLE = path.join(REPO, 'examples', 'fleet-assistant-mcp.json');

interface WorkflowNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

/** The example as a user imports it, with the lane's credential picked in its tool nodes. */
function exampleWorkflow(credential: { id: string; name: string }): { workflow: Record<string, unknown>; path: string } {
	const workflow = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as { nodes: WorkflowNode[] } & Record<string, unknown>;
	for (const node of workflow.nodes) {
		if (node.credentials?.[CREDENTIAL_TYPE]) node.credentials[CREDENTIAL_TYPE] = credential;
	}
	const trigger = workflow.nodes.find((node) => node.type === '@n8n/n8n-nodes-langchain.mcpTrigger');
	if (!trigger) throw new Error('examples/fleet-assistant-mcp.json has no MCP Server Trigger');
	return { workflow, path: String(trigger.parameters.path) };
}

async function publish(editor: Editor, workflow: Record<string, unknown>): Promise<string> {
	const id = await editor.createWorkflow(workflow);
	const saved = (await editor.rest('GET', `/workflows/${id}`)).data as { versionId: string };
	const answer = (await editor.rest('POST', `/workflows/${id}/activate`, { versionId: saved.versionId })).data as Record<string, unknown>;
	if (answer.active !== true) throw new Error(`n8n did not activate the workflow: ${JSON.stringify(answer).slice(0, 500)}`);
	return id;
}

const REGISTRATION_TIMEOUT_MS = 60_000;

/**
 * Connects once n8n serves the trigger's URL: n8n 2.41 publishes a workflow through an outbox that it
 * polls, so the production webhook answers 404 "not registered" for a moment after activation.
 */
async function connect(url: string): Promise<Client> {
	for (const t0 = Date.now(); ; ) {
		const client = new Client({ name: 'satellite-tracking-e2e', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(new URL(url)));
			return client;
		} catch (error) {
			const notYet = error instanceof Error && /"code":404|is not registered/.test(error.message);
			if (!notYet || Date.now() - t0 > REGISTRATION_TIMEOUT_MS) throw error;
			await delay(500);
		}
	}
}

/**
 * The checks, in a running n8n 2.41 whose node list is `nodeTypes`: the example published with
 * `credential`, which points at a sandbox of its own (`sandboxUrl`) that nothing else uses meanwhile,
 * so its token exchanges and its state are the conversation's. Returns the failures. The e2e lane of
 * n8n 2.41.1 runs them in its n8n (scripts/e2e/run-e2e.ts); this script, in one of its own.
 */
export async function runMcpChecks(editor: Editor, sandboxUrl: string, credential: { id: string; name: string }, nodeTypes: string[]): Promise<string[]> {
	const failures: string[] = [];
	let client: Client | undefined;
	try {
		const toolTypes = nodeTypes.filter((type) => type.endsWith('Tool'));
		log(`  n8n loaded ${nodeTypes.join(', ')} (no N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE set)`);
		if (!toolTypes.includes('n8n-nodes-satellite-tracking.satelliteTrackingTool')) {
			throw new Error('n8n offers no n8n-nodes-satellite-tracking.satelliteTrackingTool: the node is not usable as a tool');
		}
		const { workflow, path: mcpPath } = exampleWorkflow(credential);
		const workflowId = await publish(editor, workflow);
		const url = `${editor.base}/mcp/${mcpPath}`;
		log(`  published workflow ${workflowId}; MCP Server Trigger at ${url}`);

		const stats = async () => (await sandboxJson(sandboxUrl, '/__sandbox/stats')) as { tokenCalls: number; requests: number; statusCounts?: Record<string, number> };
		const before = await stats();

		const t0 = Date.now();
		const connected = await connect(url);
		client = connected;
		log(`  MCP client connected over Streamable HTTP (${seconds(Date.now() - t0)} after publishing); server "${connected.getServerVersion()?.name}"`);

		const { tools } = await connected.listTools();
		log(`  tools/list: ${tools.map((tool) => tool.name).join(', ')}`);
		if (process.env.MCP_PRINT_TOOLS === '1') log(JSON.stringify(tools, null, 2));
		failures.push(...checkToolList(tools));

		const facts = (await sandboxJson(sandboxUrl, '/__sandbox/facts')) as Record<string, unknown>;
		const call: ToolClient = async (name, args) => (await connected.callTool({ name, arguments: args })) as ToolAnswer;
		let calls = 0;
		for (const toolCase of TOOL_CASES) {
			const t = Date.now();
			try {
				calls += await toolCase.run(call, { facts, sandboxJson: (route) => sandboxJson(sandboxUrl, route) });
				log(`  ✔ ${toolCase.name} (${seconds(Date.now() - t)})`);
			} catch (error) {
				const message = error instanceof Error ? error.message : String(error);
				failures.push(`${toolCase.name}: ${message}`);
				log(`  ✘ ${toolCase.name} (${seconds(Date.now() - t)})\n      ${message.split('\n').join('\n      ')}`);
			}
		}

		const after = await stats();
		const exchanges = after.tokenCalls - before.tokenCalls;
		const tooMany = after.statusCounts?.['429'] ?? 0;
		log(
			`  token exchanges from the sandbox: ${exchanges} over ${calls} tool calls (${after.requests - before.requests} API requests, ` +
				`${tooMany} answered 429)`,
		);
		// Each tool call is its own n8n execution; they share the token stored in the credential and the
		// account's pacer in the n8n process, so a conversation costs one exchange however long it runs.
		if (exchanges !== 1) failures.push(`expected exactly 1 token exchange for the whole conversation, the sandbox counted ${exchanges}`);
	} catch (error) {
		failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
		log(`  ✘ ${failures[failures.length - 1]}`);
	} finally {
		await client?.close().catch(() => undefined);
	}
	return failures;
}

async function main(): Promise<number> {
	const started = Date.now();
	const failures: string[] = [];
	let local: LocalN8n | undefined;
	try {
		log('MCP lane: n8n 2.41.1, examples/fleet-assistant-mcp.json, a real MCP client');
		local = await startLocalN8n({ port: await freePort(), owner: E2E_OWNER, tmpPrefix: 'satellite-mcp-' });
		failures.push(...(await runMcpChecks(local.editor, local.sandbox.url, local.credential, local.nodeTypes)));
	} catch (error) {
		failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
		log(`  ✘ ${failures[failures.length - 1]}`);
	} finally {
		if (local && failures.length > 0) log(`  n8n log: ${local.n8nLog} (kept: temp folder ${local.tmpDir})`);
		if (local && failures.length === 0) await local.stop();
		else if (local) signalAll('SIGTERM');
	}
	log(`\nMCP lane ${failures.length === 0 ? 'PASSED' : 'FAILED'} in ${seconds(Date.now() - started)}`);
	for (const failure of failures) log(`  - ${failure.split('\n')[0]}`);
	return failures.length === 0 ? 0 : 1;
}

if (require.main === module) {
	stopAllOnSignals();
	main().then(
		(code) => {
			process.exitCode = code;
		},
		(error: unknown) => {
			log(`MCP lane crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
			process.exitCode = 1;
		},
	);
}
