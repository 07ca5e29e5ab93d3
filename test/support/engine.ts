import { ExecuteContext, ExecutionLifecycleHooks, LoadOptionsContext, PollContext, RoutingNode, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	Workflow,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	type INode,
	type ICredentialDataDecryptedObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IPollFunctions,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type IConnections,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { SatelliteTrackingApi } from '../../credentials/SatelliteTrackingApi.credentials';
// Explicit extensions: beside each `X.node.ts` lies n8n's codex file `X.node.json`, which tsx
// would otherwise resolve first.
import { SatelliteTracking } from '../../nodes/SatelliteTracking/SatelliteTracking.node.ts';
import { SatelliteTrackingTrigger } from '../../nodes/SatelliteTrackingTrigger/SatelliteTrackingTrigger.node.ts';
import { InMemoryCredentialsHelper, type StoredCredential } from './credentials-helper';
import { markEngineLoaded } from './engineInSuite';

markEngineLoaded();

export const PACKAGE = 'n8n-nodes-satellite-tracking';
export const ACTION_NODE_TYPE = `${PACKAGE}.satelliteTracking`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.satelliteTrackingTrigger`;
export const ITEMS_NODE_TYPE = 'test.items';
export const CREDENTIAL_ID = 'cred-sandbox';
/** The node type n8n's credential tester runs a credential's `test` request as. */
const NO_OP_NODE_TYPE = 'n8n-nodes-base.noOp';

/** Start node of test workflows: emits the items in its `items` parameter. */
class ItemsNode implements INodeType {
	description = {
		displayName: 'Items',
		name: 'items',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getNodeParameter('items', 0) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

/** Node types a test workflow can use; the trigger joins once it exists. */
const registeredNodeTypes = new Map<string, INodeType>([
	[ACTION_NODE_TYPE, new SatelliteTracking()],
	[TRIGGER_NODE_TYPE, new SatelliteTrackingTrigger()],
	[ITEMS_NODE_TYPE, new ItemsNode()],
]);

export function registerNodeType(type: string, node: INodeType): void {
	registeredNodeTypes.set(type, node);
}

const nodeTypes: INodeTypes = {
	getByName: (type) => lookup(type),
	getByNameAndVersion: (type) => lookup(type),
	getKnownTypes: () => ({}),
};

function lookup(type: string): INodeType {
	const node = registeredNodeTypes.get(type);
	if (!node) throw new Error(`Unknown node type ${type}`);
	return node;
}

export interface EngineOptions {
	baseUrl: string;
	userName: string;
	apiKey: string;
	allowUnauthorizedCerts?: boolean;
}

export interface NodeRunResult {
	/** Output items of the node under test, in order. */
	items: INodeExecutionData[];
	/** The error that stopped the node, when it failed without Continue On Fail. */
	error?: Error & { description?: string | null; context?: IDataObject };
	run: IRun;
}

export type RequestHelper = IPollFunctions['helpers']['httpRequestWithAuthentication'];

interface Activation {
	/** The node's parameters, type and version it was activated with. */
	signature: string;
	context: IPollFunctions;
	/** n8n's own, before the bench's wrapRequestHelper. */
	requestHelper: RequestHelper;
}

/**
 * Runs this package's nodes inside n8n-core's real WorkflowExecute, with an in-memory credential
 * store that performs the credential's real token exchange.
 */
export class Engine {
	readonly credentials: InMemoryCredentialsHelper;

	/**
	 * For the bench: n8n's request helper as the polls see it, wrapped (to record its answers, or to
	 * answer from a recording without HTTP); undefined for n8n's own.
	 */
	wrapRequestHelper: ((helper: RequestHelper) => RequestHelper) | undefined;

	/**
	 * The poll budget the host gives (`getPollBudgetMs()`, n8n-workflow 2.38+, under the durable
	 * scheduler); undefined for a host without it, as n8n-core 2.8's PollContext here.
	 */
	hostPollBudgetMs: number | undefined;

	private workflowCounter = 0;

	/** The active trigger workflows, by their static data (see poll). */
	private readonly activations = new WeakMap<IDataObject, Activation>();

	constructor(options: EngineOptions) {
		const credentialType: ICredentialType = new SatelliteTrackingApi();
		this.credentials = new InMemoryCredentialsHelper(new Map([[credentialType.name, credentialType]]));
		this.credentials.save(this.credentialRecord(options));
	}

	/** Replaces the stored credential (a new key, a new base URL…), dropping any stored token. */
	setCredential(options: EngineOptions): void {
		this.credentials.save(this.credentialRecord(options));
	}

	get storedToken(): string {
		return String(this.credentials.read(CREDENTIAL_ID).token ?? '');
	}

	/** Builds an Items → node workflow, runs it and returns the node's output. */
	async runNode(
		parameters: INode['parameters'],
		options: { items?: IDataObject[]; continueOnFail?: boolean; type?: string; typeVersion?: number; timezone?: string } = {},
	): Promise<NodeRunResult> {
		const node = this.node('Node', options.type ?? ACTION_NODE_TYPE, parameters, [300, 0], options.typeVersion);
		if (options.continueOnFail) node.onError = 'continueRegularOutput';
		const run = await this.runWorkflow([node], { items: options.items ?? [{}], timezone: options.timezone });
		const taskData = run.data.resultData.runData.Node?.[0];
		return {
			items: taskData?.data?.main?.[0] ?? [],
			error: (taskData?.error ?? run.data.resultData.error) as NodeRunResult['error'],
			run,
		};
	}

	/** Runs Items → nodes[0] → nodes[1] → … ; returns the whole run. */
	async runWorkflow(nodes: INode[], options: { items?: IDataObject[]; timezone?: string } = {}): Promise<IRun> {
		const start = this.node('Items', ITEMS_NODE_TYPE, { items: (options.items ?? [{}]) as never }, [0, 0]);
		const chain = [start, ...nodes];
		const connections: IConnections = {};
		for (let index = 0; index + 1 < chain.length; index++) {
			connections[chain[index].name] = { main: [[{ node: chain[index + 1].name, type: 'main', index: 0 }]] };
		}
		const workflow = this.workflow(chain, connections, undefined, options.timezone);
		const hooks = new ExecutionLifecycleHooks('manual', `exec-${this.workflowCounter}`, {
			id: workflow.id,
			name: workflow.name ?? 'test',
			nodes: chain,
			connections,
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never);
		// A plain promise rather than n8n-workflow's createDeferredPromise, which newer n8n-workflows
		// no longer export: the bench runs this engine on n8n-core 2.41 too (bench/cores.ts).
		const finished = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', resolve));

		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node: start, data: { main: [[{ json: {} }]] }, source: null }] },
		});
		const execution = new WorkflowExecute(this.additionalData(hooks), 'manual', runExecutionData);
		await execution.processRunExecutionData(workflow);
		return await finished;
	}

	/**
	 * Calls a polling node's poll() the way n8n's poller does, with persistent static data. Polls of
	 * one active workflow (mode `trigger`, the same static data object, node and parameters) share
	 * one Workflow and one PollContext, as n8n's regular scheduler keeps them from activation on
	 * (ActiveWorkflows in n8n-core 2.8, ActiveWorkflowTriggers in 2.41): the state a poll saved is
	 * then read back as it was saved. Other parameters or static data are a new activation, whose
	 * Workflow wraps the static data in n8n's change-tracking proxies, as after a restart.
	 */
	async poll(
		parameters: INode['parameters'],
		staticData: IDataObject,
		mode: WorkflowExecuteMode = 'trigger',
		type = TRIGGER_NODE_TYPE,
		typeVersion = 1,
	): Promise<INodeExecutionData[][] | null> {
		const { context, requestHelper } = this.activation(parameters, staticData, mode, type, typeVersion);
		context.helpers.httpRequestWithAuthentication = this.wrapRequestHelper ? this.wrapRequestHelper(requestHelper) : requestHelper;
		const budget = this.hostPollBudgetMs;
		if (budget === undefined) delete (context as { getPollBudgetMs?: unknown }).getPollBudgetMs;
		else Object.assign(context, { getPollBudgetMs: () => budget });
		return await lookup(type).poll!.call(context);
	}

	private activation(
		parameters: INode['parameters'],
		staticData: IDataObject,
		mode: WorkflowExecuteMode,
		type: string,
		typeVersion: number,
	): Activation {
		const signature = JSON.stringify([parameters, type, typeVersion]);
		const active = mode === 'trigger' ? this.activations.get(staticData) : undefined;
		if (active?.signature === signature) return active;
		const node = this.node('Trigger', type, parameters, [0, 0], typeVersion);
		const context: IPollFunctions = new PollContext(this.workflow([node], {}, staticData), node, this.additionalData(), mode, 'activate');
		const activation = { signature, context, requestHelper: context.helpers.httpRequestWithAuthentication };
		if (mode === 'trigger') this.activations.set(staticData, activation);
		return activation;
	}

	/**
	 * The credential dialog's Test, as n8n's CredentialsTester.runRequestTest does it (2.8.4 and
	 * 2.41.1 alike): the credential's `test` request as the routing of a temporary NoOp node, run by
	 * n8n-core's RoutingNode with the values entered, the stored credential's id attached; then
	 * the `responseSuccessBody` rules, and the tester's way of turning an error into a message.
	 */
	async testCredential(entered: ICredentialDataDecryptedObject): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const credentialType = new SatelliteTrackingApi();
		const test = credentialType.test;
		const noOp: INodeType = {
			description: {
				displayName: 'No Operation',
				name: NO_OP_NODE_TYPE,
				group: ['organization'],
				version: 1,
				description: 'Credential test',
				defaults: { name: 'Temp-Node' },
				inputs: ['main'],
				outputs: ['main'],
				credentials: [{ name: credentialType.name, required: true }],
				properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
			} as INodeType['description'],
		};
		registerNodeType(NO_OP_NODE_TYPE, noOp);
		const node: INode = {
			id: 'temp',
			name: 'Temp-Node',
			type: NO_OP_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { [credentialType.name]: { id: CREDENTIAL_ID, name: 'Sandbox' } },
		};
		const workflow = this.workflow([node], {});
		const credentialsDecrypted = { id: CREDENTIAL_ID, name: 'Sandbox', type: credentialType.name, data: { ...entered } };
		const context = new ExecuteContext(
			workflow,
			node,
			this.additionalData(),
			'internal',
			createRunExecutionData(),
			0,
			[],
			{ main: [[{ json: {} }]] },
			{ node, data: {}, source: null },
			[],
		);
		let response: INodeExecutionData[][] | null | undefined;
		try {
			response = await new RoutingNode(context, noOp, credentialsDecrypted).runNode();
		} catch (error) {
			if (error.cause?.response) {
				return { status: 'Error', message: error.cause.response.statusText || `Received HTTP status code: ${error.cause.response.status}` };
			}
			if (error.cause?.code) return { status: 'Error', message: String(error.cause.code) };
			return { status: 'Error', message: String(error.message) };
		}
		for (const rule of test.rules ?? []) {
			if (rule.type !== 'responseSuccessBody') continue;
			const json = response?.[0]?.[0]?.json ?? {};
			if (json[rule.properties.key] === rule.properties.value) return { status: 'Error', message: rule.properties.message };
		}
		return { status: 'OK', message: 'Connection successful!' };
	}

	/** The context n8n's editor gives a node's loadOptions and listSearch methods, with the real credential. */
	loadOptionsContext(parameters: INode['parameters'], type = ACTION_NODE_TYPE): ILoadOptionsFunctions {
		const node = this.node('Node', type, parameters, [0, 0]);
		return new LoadOptionsContext(this.workflow([node], {}), node, this.additionalData(), 'parameters');
	}

	/** Version 1 unless asked: what saved workflows of every node this package has published run. */
	node(name: string, type: string, parameters: INode['parameters'], position: [number, number], typeVersion = 1): INode {
		return {
			id: name,
			name,
			type,
			typeVersion,
			position,
			parameters,
			credentials: { satelliteTrackingApi: { id: CREDENTIAL_ID, name: 'Sandbox' } },
		};
	}

	/** `timezone`: the workflow's Time Zone setting, which n8n's getTimezone() reads. */
	private workflow(nodes: INode[], connections: IConnections, staticData?: IDataObject, timezone?: string): Workflow {
		return new Workflow({
			id: `wf-${++this.workflowCounter}`,
			name: 'test',
			nodes,
			connections,
			active: false,
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1', ...(timezone ? { timezone } : {}) },
		});
	}

	private additionalData(hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
		const unavailable = (what: string) => () => {
			throw new Error(`${what} is not available in the test engine`);
		};
		return {
			hooks,
			credentialsHelper: this.credentials,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678/',
			formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
			webhookBaseUrl: 'http://localhost:5678/webhook',
			webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
			variables: {},
			executeWorkflow: unavailable('executeWorkflow'),
			getRunExecutionData: unavailable('getRunExecutionData'),
			logAiEvent: () => undefined,
			startRunnerTask: unavailable('startRunnerTask'),
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	private credentialRecord(options: EngineOptions): StoredCredential {
		return {
			id: CREDENTIAL_ID,
			name: 'Sandbox',
			type: 'satelliteTrackingApi',
			data: {
				baseUrl: options.baseUrl,
				userName: options.userName,
				apiKey: options.apiKey,
				allowUnauthorizedCerts: options.allowUnauthorizedCerts ?? false,
				token: '',
				tokenExpires: '',
			},
		};
	}
}
