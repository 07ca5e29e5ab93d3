import { Credentials } from 'n8n-core';
import {
	ICredentialsHelper,
	isExpression,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type Workflow,
} from 'n8n-workflow';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/**
 * The credentials side of n8n's CLI, in memory: it runs a credential type's real
 * `preAuthentication` and `authenticate` the way packages/cli's CredentialsHelper does (token
 * fetched when the expirable field is empty or after a 401, then persisted for later executions).
 */
export class InMemoryCredentialsHelper extends ICredentialsHelper {
	private readonly stored = new Map<string, StoredCredential>();

	constructor(private readonly types: Map<string, ICredentialType>) {
		super();
	}

	save(credential: StoredCredential): void {
		this.stored.set(credential.id, { ...credential, data: { ...credential.data } });
	}

	read(id: string): ICredentialDataDecryptedObject {
		return { ...this.find({ id, name: '' }).data };
	}

	getParentTypes(): string[] {
		return [];
	}

	/**
	 * n8n-core 2.41 asks before handing a node its credential (n8n 2.8 does not); false only for a
	 * credential type that restricts itself to listed nodes, which this package's does not.
	 */
	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		const stored = this.find(nodeCredentials);
		return new Credentials({ id: stored.id, name: stored.name }, type);
	}

	async getDecrypted(_additionalData: unknown, nodeCredentials: INodeCredentialsDetails): Promise<ICredentialDataDecryptedObject> {
		return { ...this.find(nodeCredentials).data };
	}

	async updateCredentials(nodeCredentials: INodeCredentialsDetails, _type: string, data: ICredentialDataDecryptedObject) {
		this.find(nodeCredentials).data = { ...data };
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const resolve = (value: string) =>
				isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '') ?? '',
						)
					: value;
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				const options = requestOptions as unknown as Record<string, Record<string, string>>;
				options[target] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, string>)) {
					options[target][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find((property) => property.type === 'hidden' && property.typeOptions?.expirable === true);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		// As n8n's CLI helper: the credential dialog's Test (a NoOp node with a `temp` parameter) always
		// fetches a token for what is entered.
		const isTestingCredentials = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials) return undefined;

		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName];
		if (!nodeCredentials) return undefined;
		const stored = this.find(nodeCredentials);
		stored.data = { ...stored.data, ...(output as ICredentialDataDecryptedObject) };
		return Object.assign(credentials, output);
	}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}

	private find(details: INodeCredentialsDetails): StoredCredential {
		const stored = details.id ? this.stored.get(details.id) : undefined;
		if (!stored) throw new Error(`No stored credential with id ${details.id}`);
		return stored;
	}
}
