import { Workflow, type INode, type INodeType, type INodeTypes } from 'n8n-workflow';

import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';

const types: Record<string, INodeType> = { action: new SatelliteTracking(), trigger: new SatelliteTrackingTrigger() };
const nodeTypes: INodeTypes = {
	getByName: (type) => types[type],
	getByNameAndVersion: (type) => types[type],
	getKnownTypes: () => ({}),
};

/** The subtitle as n8n's canvas computes it: the node type's subtitle expression over the node's parameters. */
function subtitleOf(type: 'action' | 'trigger', parameters: INode['parameters']): unknown {
	const node: INode = { id: '1', name: 'Node', type, typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, types[type].description.subtitle as string, 'internal', {});
}

describe('canvas subtitles', () => {
	it('name the operation and the resource in words', () => {
		expect(subtitleOf('action', { resource: 'device', operation: 'getLastLocation' })).toBe('Get Last Location: Device');
		expect(subtitleOf('action', { resource: 'user', operation: 'upsert' })).toBe('Create or Update: User');
		expect(subtitleOf('action', { resource: 'location', operation: 'getAll' })).toBe('Get Many: Location');
	});

	it('fall back to the value for an operation the node does not know', () => {
		expect(subtitleOf('action', { resource: 'device', operation: 'teleport' })).toBe('teleport: Device');
	});

	it("name the trigger's events by their labels", () => {
		expect(subtitleOf('trigger', { events: ['geofenceExited', 'deviceSilent'] })).toBe('Geofence Exited, Device Silent');
		expect(subtitleOf('trigger', { events: ['locationUpdated'] })).toBe('Location Updated');
	});
});
