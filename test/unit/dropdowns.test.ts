import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';

/**
 * n8n's dropdowns show an option's description on one line under its name, cut off with "…" past
 * about 60 characters in the default panel width (seen in 2.41.1: "Count the account's active, …").
 */
const DROPDOWN_LINE = 60;

type Option = INodeProperties | INodePropertyOptions | INodePropertyCollection;

function dropdownOptions(properties: INodeProperties[], path = ''): Array<{ where: string; description: string }> {
	return properties.flatMap((property) => {
		const where = `${path}${property.name}`;
		const options = (property.options ?? []) as Option[];
		if (property.type === 'options' || property.type === 'multiOptions') {
			return (options as INodePropertyOptions[])
				.filter((option) => option.description !== undefined)
				.map((option) => ({ where: `${where} → ${option.name}`, description: option.description! }));
		}
		return options.flatMap((option) =>
			'values' in option ? dropdownOptions(option.values, `${where}.${option.name}.`) : 'type' in option ? dropdownOptions([option as INodeProperties], `${where}.`) : [],
		);
	});
}

describe('dropdown descriptions', () => {
	it.each([
		['Satellite Tracking', new SatelliteTracking().description.properties],
		['Satellite Tracking Trigger', new SatelliteTrackingTrigger().description.properties],
	])('of %s fit on one line', (_, properties) => {
		const options = dropdownOptions(properties);
		expect(options.length).toBeGreaterThan(5);
		expect(options.filter((option) => option.description.length > DROPDOWN_LINE)).toEqual([]);
	});
});
