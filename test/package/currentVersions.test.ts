/**
 * What a new user is shown first runs the nodes' current versions (issue 24.4: `npm run dev` opened
 * a version-1 workflow, without Simplify and with 27 raw columns): the dev starter workflow, the
 * examples and the README screenshot's workflow.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node';
import { starterWorkflow } from '../../scripts/n8n/local';

const REPO = join(__dirname, '../..');
const PACKAGE = 'n8n-nodes-satellite-tracking';

const current = (node: INodeType) => {
	const { version, defaultVersion } = node.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
};
const CURRENT: Record<string, number> = {
	[`${PACKAGE}.satelliteTracking`]: current(new SatelliteTracking()),
	// n8n's tool variant of the action node (AI Agent, MCP Server Trigger) has the action node's versions.
	[`${PACKAGE}.satelliteTrackingTool`]: current(new SatelliteTracking()),
	[`${PACKAGE}.satelliteTrackingTrigger`]: current(new SatelliteTrackingTrigger()),
};

interface Workflow {
	nodes: Array<{ name: string; type: string; typeVersion: number }>;
}

/** The package's nodes of a workflow whose version is not the current one. */
const outdated = (workflow: Workflow) =>
	workflow.nodes.filter((node) => node.type in CURRENT && node.typeVersion !== CURRENT[node.type]).map((node) => `${node.name} v${node.typeVersion}`);

test('the action node is at version 2.2 and the trigger at 3, which these checks expect to find', () => {
	expect(CURRENT[`${PACKAGE}.satelliteTracking`]).toBe(2.2);
	expect(CURRENT[`${PACKAGE}.satelliteTrackingTrigger`]).toBe(3);
});

test('the `npm run dev` starter workflow uses the current versions', () => {
	const workflow = starterWorkflow({ id: 'x', name: 'Sandbox' }) as unknown as Workflow;
	expect(workflow.nodes.filter((node) => node.type in CURRENT)).not.toHaveLength(0);
	expect(outdated(workflow)).toEqual([]);
});

test.each(readdirSync(join(REPO, 'examples')).filter((file) => file.endsWith('.json')))('examples/%s uses the current versions', (file) => {
	expect(outdated(JSON.parse(readFileSync(join(REPO, 'examples', file), 'utf8')) as Workflow)).toEqual([]);
});

test("the README screenshot's workflow uses the current versions", () => {
	// scripts/screenshot.ts runs on import: its workflow is read from its text.
	const source = readFileSync(join(REPO, 'scripts/screenshot.ts'), 'utf8');
	const versions = [...source.matchAll(/type: `\$\{PACKAGE_NAME\}\.(\w+)`,\s*typeVersion: ([\d.]+)/g)].map(([, type, version]) => ({
		name: type,
		type: `${PACKAGE}.${type}`,
		typeVersion: Number(version),
	}));
	expect(versions).not.toHaveLength(0);
	expect(outdated({ nodes: versions })).toEqual([]);
});
