/**
 * getParameter reads `{{ $json.field }}` from the item instead of through n8n's expression engine:
 * whatever it answers must be what n8n-core resolves, item by item, in the real engine.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

import { getParameter } from '../../nodes/shared/parameters';
import { registerNodeType } from '../support/engine';
import { useSandbox } from '../support/sandboxed';

const PROBE_TYPE = 'test.parameterProbe';

const EXPRESSIONS = [
	'={{ $json.v }}',
	'={{$json.v}}',
	'={{ $json.v.length }}',
	'={{ $json.v }} and more',
	'={{ $json.constructor }}',
	'={{ $json.toString }}',
	'={{ $json.missing }}',
	'plain text',
];

class ParameterProbe implements INodeType {
	description = {
		displayName: 'Parameter Probe',
		name: 'parameterProbe',
		group: ['transform'],
		version: 1,
		description: 'Resolves each parameter both ways',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			...EXPRESSIONS.map((_, index) => ({ displayName: `Text ${index}`, name: `text${index}`, type: 'string', default: '' })),
			{ displayName: 'Count', name: 'count', type: 'number', default: 0 },
			{
				displayName: 'Device',
				name: 'deviceId',
				type: 'resourceLocator',
				default: { mode: 'id', value: '' },
				modes: [{ displayName: 'ID', name: 'id', type: 'string' }],
			},
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const names = [...EXPRESSIONS.map((_, index) => `text${index}`), 'count', 'deviceId'];
		const both = (name: string, itemIndex: number) => {
			const options = name === 'deviceId' ? { extractValue: true } : undefined;
			const outcome = (read: () => unknown) => {
				try {
					return { value: read() };
				} catch (error) {
					return { error: (error as Error).message };
				}
			};
			return {
				fast: outcome(() => getParameter(this, name, itemIndex, '', options)),
				n8n: outcome(() => this.getNodeParameter(name, itemIndex, '', options)),
			};
		};
		return [this.getInputData().map((_, itemIndex) => ({ json: Object.fromEntries(names.map((name) => [name, both(name, itemIndex)])) as IDataObject }))];
	}
}

describe('reading {{ $json.field }} from the item', () => {
	const ctx = useSandbox();
	beforeAll(() => registerNodeType(PROBE_TYPE, new ParameterProbe()));

	it('answers what n8n resolves, for every kind of value an item may hold', async () => {
		const values: unknown[] = ['text', '', ' spaced ', '{{ 1 + 1 }}', '=1', 0, 42.5, -1, true, false, null, { a: 1 }, [1, 2], '2026-01-01T00:00:00Z'];
		const items = [...values.map((v) => ({ v })), {}];
		const parameters: IDataObject = Object.fromEntries(EXPRESSIONS.map((expression, index) => [`text${index}`, expression]));
		parameters.count = '={{ $json.v }}';
		parameters.deviceId = { __rl: true, mode: 'id', value: '={{ $json.v }}' };
		const result = await ctx.engine.runNode(parameters as never, { items: items as IDataObject[], type: PROBE_TYPE });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(items.length);
		for (const item of result.items) {
			for (const { fast, n8n } of Object.values(item.json) as Array<{ fast: unknown; n8n: unknown }>) expect(fast).toEqual(n8n);
		}
	});
});
