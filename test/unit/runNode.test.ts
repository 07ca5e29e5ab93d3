import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { isToolRun } from '../../nodes/SatelliteTracking/actions/toolMode';
import { isVersion1, limitKeepsNewest } from '../../nodes/SatelliteTracking/actions/versions';
import { runNode } from '../../nodes/shared/parameters';

/** A run's context as n8n-core's is: getNode() hands out a fresh deep copy on every call. */
function runOf(type: string, typeVersion: number) {
	const node: INode = { id: '1', name: 'Satellite Tracking', type, typeVersion, position: [0, 0], parameters: {} };
	const context = { copies: 0, getNode: () => (context.copies++, structuredClone(node)) };
	return context as typeof context & IExecuteFunctions;
}

describe('runNode', () => {
	it("answers each run's own node type and version, reading the node once per run", () => {
		const tool = runOf('n8n-nodes-satellite-tracking.satelliteTrackingTool', 2.1);
		const saved = runOf('n8n-nodes-satellite-tracking.satelliteTracking', 1);
		for (let item = 0; item < 100; item++) {
			expect([isToolRun(tool), isVersion1(tool), limitKeepsNewest(tool)]).toEqual([true, false, true]);
			expect([isToolRun(saved), isVersion1(saved), limitKeepsNewest(saved)]).toEqual([false, true, false]);
		}
		expect([tool.copies, saved.copies]).toEqual([1, 1]);
		expect(runNode(tool)).toEqual(tool.getNode());
	});
});
