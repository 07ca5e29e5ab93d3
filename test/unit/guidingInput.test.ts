import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';

const action = new SatelliteTracking().description.properties;
const trigger = new SatelliteTrackingTrigger().description.properties;

const shownFor = (resource: string, operation: string) => (property: INodeProperties) =>
	property.displayOptions?.show?.resource?.includes(resource) && property.displayOptions?.show?.operation?.includes(operation);

describe('input that guides in the editor', () => {
	it('latitude and longitude refuse out-of-range values in Submit Location and the circle geofence', () => {
		const submit = action.filter(shownFor('location', 'submit'));
		const circle = (trigger.find((property) => property.name === 'geofences')!.options as INodePropertyCollection[]).find((option) => option.name === 'circle')!.values;
		for (const fields of [submit, circle]) {
			expect(fields.find((field) => field.name === 'latitude')?.typeOptions).toMatchObject({ minValue: -90, maxValue: 90 });
			expect(fields.find((field) => field.name === 'longitude')?.typeOptions).toMatchObject({ minValue: -180, maxValue: 180 });
		}
	});

	it.each([['location'], ['alert']])('%s Get Many starts at the last 24 hours and says that Return All gets the rest', (resource) => {
		const fields = action.filter(shownFor(resource, 'getAll'));
		expect(fields.find((field) => field.name === 'from')?.default).toBe('={{ $now.minus({ hours: 24 }).toISO() }}');
		expect(fields.find((field) => field.name === 'to')?.default).toBe('={{ $now.toISO() }}');
		expect(fields.find((field) => field.name === 'limit')?.hint).toContain('Return All');
	});
});
