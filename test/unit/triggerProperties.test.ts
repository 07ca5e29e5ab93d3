import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';

import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';

const description = new SatelliteTrackingTrigger().description;
const node = { typeVersion: 1 } as INode;
const depot = { name: 'Depot', latitude: 52.52, longitude: 13.405, radius: 300 };

/** What n8n keeps of a node's parameters (the editor on every change, the engine on every run). */
const kept = (parameters: INodeParameters) => NodeHelpers.getNodeParameters(description.properties, parameters, false, false, node, description)!;

describe('trigger parameters shown for some events', () => {
	it('name Events by its root path, so n8n\'s editor does not empty them when Events changes', () => {
		const dependents = description.properties.filter((property) => property.displayOptions?.show && JSON.stringify(property.displayOptions).includes('events'));
		expect(dependents.map((property) => property.name)).toEqual(expect.arrayContaining(['geofences', 'dailyLimits', 'silentAfterMinutes']));
		for (const property of dependents) {
			expect(Object.keys(property.displayOptions!.show!)).toEqual(['/events']);
		}
	});

	it('are kept while one of their events is selected, whatever else changes', () => {
		for (const events of [['geofenceExited'], ['geofenceEntered', 'deviceSilent'], ['locationUpdated', 'geofenceExited', 'criticalAlert']]) {
			expect(kept({ events, geofences: { circle: [depot] } }).geofences).toEqual({ circle: [depot] });
		}
		expect(kept({ events: ['dailyLimitNear', 'deviceSilent'], dailyLimits: { emailLimit: 120 } }).dailyLimits).toEqual({ emailLimit: 120 });
	});

	it('are hidden, as before, when none of their events is selected', () => {
		const parameters = kept({ events: ['locationUpdated', 'deviceSilent'], geofences: { circle: [depot] }, dailyLimits: { emailLimit: 120 } });
		expect(parameters.geofences).toBeUndefined();
		expect(parameters.dailyLimits).toBeUndefined();
	});
});
