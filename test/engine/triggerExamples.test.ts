/**
 * The example workflows in examples/ are real: their trigger parameters drive the trigger against
 * the sandbox, and the HTTP Request body each builds from the event is evaluated by n8n's own
 * expression engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Workflow, type IDataObject, type INode, type INodeTypes } from 'n8n-workflow';

import type { TriggerEvent } from '../../nodes/SatelliteTrackingTrigger/detection/types';
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type Sandbox } from '../../sandbox/server';
import { Engine, TRIGGER_NODE_TYPE } from '../support/engine';
import { eventsOf } from '../support/trigger';

interface WorkflowFile {
	nodes: INode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const load = (name: string): WorkflowFile => JSON.parse(readFileSync(join(__dirname, '../../examples', name), 'utf8'));

/** What the HTTP Request node would send for this event. */
function bodyFor(node: INode, event: TriggerEvent): Record<string, unknown> {
	// n8n-nodes-base is not installed here; an HTTP Request stand-in without properties keeps the parameters as written.
	const stand = { description: { properties: [] } };
	const nodeTypes = { getByName: () => stand, getByNameAndVersion: () => stand, getKnownTypes: () => ({}) } as unknown as INodeTypes;
	// Workflow drops the parameters its node type does not declare, so the stand-in gets none.
	const workflow = new Workflow({ nodes: [{ ...node, parameters: {} }], connections: {}, active: false, nodeTypes });
	const text = workflow.expression.getParameterValue(
		node.parameters.jsonBody as string,
		null,
		0,
		0,
		node.name,
		[{ json: event as unknown as IDataObject }],
		'trigger',
		{},
	);
	return JSON.parse(String(text));
}

function parts(file: WorkflowFile) {
	const trigger = file.nodes.find((node) => node.type === TRIGGER_NODE_TYPE)!;
	const request = file.nodes.find((node) => node.type === 'n8n-nodes-base.httpRequest')!;
	return { trigger, request };
}

describe('example workflows', () => {
	let sandbox: Sandbox;
	let engine: Engine;
	beforeEach(async () => {
		sandbox = await startSandbox({ port: 0, deviceCount: 8 });
		engine = new Engine({ baseUrl: sandbox.url, userName: DEMO_USER_NAME, apiKey: DEMO_API_KEY });
	});
	afterEach(async () => sandbox.close());

	// As the example is saved: its version decides the shape of what the HTTP Request reads.
	const poll = async (trigger: INode, staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger') =>
		eventsOf(await engine.poll(trigger.parameters, staticData, mode, TRIGGER_NODE_TYPE, trigger.typeVersion));

	it.each(['critical-alert-to-chat.json', 'geofence-exit-email.json', 'cold-chain-temperature-alert.json'])('%s wires the trigger to an HTTP Request with the package names', (name) => {
		const file = load(name);
		const { trigger, request } = parts(file);
		expect(trigger.credentials).toEqual({ satelliteTrackingApi: { id: 'satTrackCred01', name: 'Sandbox' } });
		expect(trigger.parameters.pollTimes).toBeDefined();
		expect(request.typeVersion).toBe(4.2);
		expect(file.connections[trigger.name].main[0][0].node).toBe(request.name);
	});

	it.each(['critical-alert-to-chat.json', 'geofence-exit-email.json', 'cold-chain-temperature-alert.json'])('%s builds its message from "Fetch Test Event" samples too', async (name) => {
		const { trigger, request } = parts(load(name));
		const samples = await poll(trigger, {}, 'manual');
		expect(samples.length).toBeGreaterThan(0);
		for (const sample of samples) expect(JSON.stringify(bodyFor(request, sample))).toContain(sample.deviceName);
	});

	it('critical-alert-to-chat posts the alert texts, the device and a map link', async () => {
		const { trigger, request } = parts(load('critical-alert-to-chat.json'));
		const staticData: IDataObject = {};
		expect(await poll(trigger, staticData)).toEqual([]);
		sandbox.store.addFix('device001', { latitude: 51.5, longitude: -0.12, dateTime: new Date(Date.now() - 2000).toISOString(), alertTexts: ['Overspeed'] });
		sandbox.store.addFix('device001', {
			latitude: 51.5,
			longitude: -0.12,
			dateTime: new Date(Date.now() - 1000).toISOString(),
			hasCriticalAlert: true,
			alertTexts: ['SOS button pressed'],
			alerts: ['SOS'],
		});
		const events = await poll(trigger, staticData);
		expect(events.map((event) => [event.event, event.deviceId])).toEqual([['criticalAlert', 'device001']]);
		const body = bodyFor(request, events[0]);
		expect(body.text).toContain('Truck 01 (device001): SOS button pressed, SOS at ');
		expect(body.text).toContain('mlat=51.5&mlon=-0.12');
	});

	it('geofence-exit-email sends one e-mail per geofence left', async () => {
		const { trigger, request } = parts(load('geofence-exit-email.json'));
		const staticData: IDataObject = {};
		expect(await poll(trigger, staticData)).toEqual([]);
		const north = sandbox.store.listDevices().find((device) => device.tags?.fleet === 'north')!;
		const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
		// Two fixes that agree (a drive of 1.4 km in two minutes), however far the seeded position lay.
		sandbox.store.addFix(north.id, { latitude: 51.5072, longitude: -0.1276, dateTime: at(120_000) });
		sandbox.store.addFix(north.id, { latitude: 51.52, longitude: -0.1276, dateTime: at(2000) });
		const events = await poll(trigger, staticData);
		expect(events.map((event) => [event.event, event.deviceId, event.geofence])).toEqual([
			['geofenceExited', north.id, 'Depot'],
			['geofenceExited', north.id, 'Yard'],
		]);
		const body = bodyFor(request, events[0]);
		expect(body).toMatchObject({ to: 'dispatch@example.com', subject: `${north.name} left Depot` });
		expect(body.text).toContain(`${north.name} (${north.id}) left Depot at ${at(2000).slice(0, 10)}`);
	});

	it('cold-chain-temperature-alert posts a reefer leaving 2–8 °C once, with its temperature and a map link', async () => {
		const { trigger, request } = parts(load('cold-chain-temperature-alert.json'));
		const reefer = sandbox.store.facts.telemetryDeviceIds.reefer[0];
		const staticData: IDataObject = {};
		expect(await poll(trigger, staticData)).toEqual([]);
		const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
		for (const [msAgo, temperature] of [[4000, 7.9], [3000, 8.6], [2000, 7.8], [1000, 8.9]]) {
			sandbox.store.addFix(reefer, { latitude: -12.05, longitude: -77.04, dateTime: at(msAgo), temperature });
		}
		const events = await poll(trigger, staticData);
		expect(events.map((event) => [event.event, event.deviceId, event.value])).toEqual([['valueCrossed', reefer, 8.6]]);
		const body = bodyFor(request, events[0]);
		expect(body.text).toContain(`${sandbox.store.getDevice(reefer)!.name} (${reefer}): temperature 8.6 °C, above 8 °C at `);
		expect(body.text).toContain('mlat=-12.05&mlon=-77.04');
	});
});
