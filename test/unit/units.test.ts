/**
 * Issue 46.8: every number a user types says its unit in its label or description, and the labels
 * spell the unit one way (Meters, as n8n's own nodes do).
 */
import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node';

/** A unit, or what stands for one: a count, or the device's own unit where the service documents none. */
const UNIT = /km\/h|\bkm\b|\(km\)|meters|minutes|hours|days|seconds|degrees|\bhow many\b|\bcount\b|the unit the device reports|in the field's own unit|share|percent|%|\blimit\b|\bper (minute|poll)\b|\bretries\b|\bdegrees\b|revolutions/i;

function numberFields(properties: Array<INodeProperties | INodePropertyCollection>, path = ''): Array<{ path: string; text: string }> {
	const found: Array<{ path: string; text: string }> = [];
	for (const property of properties) {
		const label = property.displayName;
		const here = `${path}${label}`;
		if ('type' in property && property.type === 'number') found.push({ path: here, text: `${label} ${property.description ?? ''}` });
		const nested = ('options' in property ? property.options : undefined) ?? ('values' in property ? property.values : undefined);
		if (Array.isArray(nested)) found.push(...numberFields(nested.filter((entry): entry is INodeProperties | INodePropertyCollection => typeof entry === 'object' && 'displayName' in entry), `${here} › `));
	}
	return found;
}

const descriptions: INodeTypeDescription[] = [new SatelliteTracking().description, new SatelliteTrackingTrigger().description];

describe('units (issue 46.8)', () => {
	it('every number field of both nodes names its unit in its label or description', () => {
		const fields = descriptions.flatMap((description) => numberFields(description.properties));
		expect(fields.length).toBeGreaterThan(10);
		expect(fields.filter((field) => !UNIT.test(field.text)).map((field) => field.path)).toEqual([]);
	});

	it('spells metres one way in labels: Meters', () => {
		const labels = JSON.stringify(descriptions.map((description) => description.properties)).match(/"displayName":"[^"]*"/g) ?? [];
		expect(labels.filter((label) => /metre/i.test(label))).toEqual([]);
	});

	it('tells, beside Get Trips and Get Daily Summary, the units of the numbers they give and how the summary\'s parts add up (46.2)', () => {
		const notices = new SatelliteTracking().description.properties.filter((property) => property.type === 'notice').map((property) => property.displayName);
		const trips = notices.find((text) => text.includes('averageSpeed'));
		expect(trips).toMatch(/maxSpeed[^;]*km\/h/);
		expect(trips).toMatch(/averageSpeed in km\/h/);
		const summary = notices.find((text) => text.includes('drivingMinutes + stoppedMinutes'));
		expect(summary).toMatch(/idleMinutes is the part of them/);
		expect(summary).toMatch(/fuelUsed in the unit the device reports/);
		expect(summary).toMatch(/maxSpeed[^;]*km\/h/);
	});
});
