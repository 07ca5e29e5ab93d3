/**
 * The second ceiling: n8n's own request helper with nothing of this package around it. A node
 * whose execute (or poll) sends a fixed list of calls through `httpRequestWithAuthentication` with
 * the package's credential, as many at once as the node keeps under way, inside the same engine.
 * The raw pool's ceiling ÷ this loop is what n8n costs; this loop ÷ the package's node is what
 * the package adds (parameters, validation, pacing, retries, output shaping).
 *
 * It calls the helper with the transport's options and the fastest way the helper allows, as the
 * transport does: the credential read once and handed to every call, the first call alone so the
 * token exchange happens once.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	IPollFunctions,
} from 'n8n-workflow';

import { joinUrl } from '../credentials/baseUrl';
import { CREDENTIAL_TYPE } from '../nodes/shared/wire';
import { registerNodeType, type Engine } from '../test/support/engine';
import { timed } from './measure';
import type { RawCall } from './rawClient';

const HELPER_LOOP_TYPE = 'bench.n8nHelperLoop';

export interface HelperLoopRun {
	wallMs: number;
	/** Calls answered 2xx (token call apart). */
	ok: number;
	/** Why the loop stopped, when it did. */
	error?: string;
}

interface Answer {
	statusCode: number;
	body: unknown;
}

async function sendAll(context: IExecuteFunctions | IPollFunctions, calls: RawCall[], concurrency: number): Promise<INodeExecutionData[]> {
	const stored = context.getNode().credentials?.[CREDENTIAL_TYPE];
	const data = { ...(await context.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE)) };
	const credentialsDecrypted: ICredentialsDecrypted = { id: stored?.id ?? '', name: stored?.name ?? '', type: CREDENTIAL_TYPE, data };
	const answers: INodeExecutionData[] = new Array(calls.length);
	const send = async (index: number) => {
		const call = calls[index];
		const answer = (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			{
				method: call.method as IHttpRequestMethods,
				url: joinUrl(String(data.baseUrl), call.path),
				body: call.body as object | undefined,
				json: true,
				timeout: 30_000,
				skipSslCertificateValidation: data.allowUnauthorizedCerts === true,
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			},
			{ credentialsDecrypted },
		)) as Answer;
		answers[index] = { json: { statusCode: answer.statusCode, body: answer.body as never } };
	};
	if (calls.length > 0) await send(0);
	let next = 1;
	const worker = async () => {
		while (next < calls.length) await send(next++);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
	return answers;
}

function helperLoopNode(calls: RawCall[], concurrency: number): INodeType {
	return {
		description: {
			displayName: 'n8n helper loop',
			name: 'n8nHelperLoop',
			group: ['input'],
			version: 1,
			description: "Sends fixed calls through n8n's httpRequestWithAuthentication",
			defaults: { name: 'n8n helper loop' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [],
		} as INodeType['description'],
		async execute(this: IExecuteFunctions) {
			return [await sendAll(this, calls, concurrency)];
		},
		async poll(this: IPollFunctions) {
			return [await sendAll(this, calls, concurrency)];
		},
	};
}

const outcome = (wallMs: number, items: INodeExecutionData[], error?: Error): HelperLoopRun => {
	const ok = items.filter((item) => Number(item.json.statusCode) >= 200 && Number(item.json.statusCode) < 300).length;
	return { wallMs, ok, error: error?.message };
};

/** The loop as an action node in a workflow, fed the same input items as the node it stands beside. */
export async function executeHelperLoop(engine: Engine, calls: RawCall[], concurrency: number, items: object[]): Promise<HelperLoopRun> {
	registerNodeType(HELPER_LOOP_TYPE, helperLoopNode(calls, concurrency));
	const { result, wallMs } = await timed(() => engine.runNode({}, { items: items as never[], type: HELPER_LOOP_TYPE }));
	return outcome(wallMs, result.items, result.error);
}

/** Each engine's loop polls as one active workflow, as the trigger it stands beside does (Engine.poll). */
const loopStaticData = new WeakMap<Engine, IDataObject>();

/** The loop as a polling node, called the way n8n's poller calls the trigger. */
export async function pollHelperLoop(engine: Engine, calls: RawCall[], concurrency: number): Promise<HelperLoopRun> {
	registerNodeType(HELPER_LOOP_TYPE, helperLoopNode(calls, concurrency));
	let staticData = loopStaticData.get(engine);
	if (!staticData) loopStaticData.set(engine, (staticData = {}));
	try {
		const { result, wallMs } = await timed(() => engine.poll({}, staticData, 'trigger', HELPER_LOOP_TYPE));
		return outcome(wallMs, result?.[0] ?? []);
	} catch (error) {
		return { wallMs: NaN, ok: 0, error: (error as Error).message };
	}
}
