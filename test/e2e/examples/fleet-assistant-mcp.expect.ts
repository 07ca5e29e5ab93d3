import * as fs from 'node:fs';
import * as path from 'node:path';

import { ensure, ensureRunSucceeded, nodeItems, type ExampleExpectation } from '../lib';

const TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
const TOOL_TYPE = 'n8n-nodes-satellite-tracking.satelliteTrackingTool';
const CHECK_NODE = 'One device';

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

// examples/fleet-assistant-mcp.json: an MCP Server Trigger whose tools are Satellite Tracking tool
// nodes. This runner can only start a workflow at a Manual Trigger (`n8n execute`) or run it once
// from a trigger the way the editor does; an MCP Server Trigger runs only when an MCP client calls
// its URL, so here the example runs its "check the credential first" branch in both lanes (which
// also proves n8n 2.8.4 and 2.41.1 import the MCP trigger and the tool nodes), and its shape is
// checked from the file. `npm run test:e2e:mcp` (scripts/e2e/mcp/run-mcp.ts) publishes this same
// file in n8n 2.41.1 and drives every tool with a real MCP client.
const expectation: ExampleExpectation = {
	id: 'exampleFleetMcp01',
	sinks: {},
	description: 'examples/fleet-assistant-mcp.json: its credential check runs; MCP trigger + $fromAI tools (run for real by test:e2e:mcp)',
	check(run) {
		ensureRunSucceeded(run);
		const devices = nodeItems(run, CHECK_NODE);
		ensure(devices.length === 1 && typeof devices[0].id === 'string', `${CHECK_NODE}: expected one device, got ${JSON.stringify(devices)}`);

		const file = path.join(__dirname, '..', '..', '..', 'examples', 'fleet-assistant-mcp.json');
		const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>> };
		const trigger = workflow.nodes.find((node) => node.type === TRIGGER_TYPE);
		ensure(trigger && trigger.typeVersion >= 2, 'the example needs an MCP Server Trigger of version 2 (Streamable HTTP at its path)');
		const tools = workflow.nodes.filter((node) => node.type === TOOL_TYPE);
		ensure(tools.length >= 6, `expected at least 6 Satellite Tracking tools, found ${tools.length}`);
		for (const tool of tools) {
			const target = workflow.connections[tool.name]?.ai_tool?.[0]?.[0];
			ensure(target?.node === trigger.name && target.type === 'ai_tool', `${tool.name}: not connected to the MCP Server Trigger as a tool`);
			ensure(/^[a-z_]{1,64}$/.test(tool.name), `${tool.name}: the node name is the tool name a model sees; keep it snake_case`);
			ensure(JSON.stringify(tool.parameters).includes('$fromAI('), `${tool.name}: no parameter comes from the model ($fromAI)`);
		}
		const operations = tools.map((tool) => `${String(tool.parameters.resource)}.${String(tool.parameters.operation)}`);
		for (const needed of ['device.getAll', 'device.getLastLocation', 'location.getAll', 'alert.getAll', 'group.addDevices', 'user.upsert']) {
			ensure(operations.includes(needed), `the example has no ${needed} tool (has ${operations.join(', ')})`);
		}
	},
};

export default expectation;
