import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { requestToken, StoredTokenMismatch, tokenMatchesCredential } from '../nodes/shared/transport/token';
import { CREDENTIAL_TYPE, DEFAULT_BASE_URL, ENDPOINTS } from '../nodes/shared/wire';

export class SatelliteTrackingApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Satellite Tracking API';

	// The package's own README section; it links the vendor's API docs.
	documentationUrl = 'https://github.com/satellite-tracking-n8n/n8n-nodes-satellite-tracking#the-credential';

	icon = {
		light: 'file:../nodes/SatelliteTracking/satelliteTracking.svg',
		dark: 'file:../nodes/SatelliteTracking/satelliteTracking.dark.svg',
	} as const;

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			required: true,
			description: 'Address of the tracking API, with a path prefix if your deployment has one',
		},
		{
			displayName: 'User Name',
			name: 'userName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'name@example.com',
			description: "The account's e-mail address",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Generated in the web app under account settings when the API is activated. Regenerating it invalidates the old key at once.',
		},
		{
			displayName: 'Allow Unauthorized Certificates',
			name: 'allowUnauthorizedCerts',
			type: 'boolean',
			// n8n's community lint masks any field whose name contains "cert"; a toggle shows no value anyway.
			typeOptions: { password: true },
			default: false,
			description:
				'Whether to connect even if the TLS certificate cannot be verified (self-signed test servers only)',
		},
		{
			displayName: 'Token',
			name: 'token',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// When to fetch a new token, on n8n's clock; empty: keep it until the service refuses it.
			displayName: 'Token Expires',
			name: 'tokenExpires',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
		{
			// A hash of the Base URL, user name and API key the token was fetched with: after any of them
			// changes, the token is not sent (it belongs to other values, maybe another host).
			displayName: 'Token Fingerprint',
			name: 'tokenFingerprint',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	// n8n calls this when `token` is empty, when testing the credential, and once more when a
	// request fails with 401; it stores what is returned in the credential, so the token is shared
	// by executions and workers.
	async preAuthentication(
		this: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
	): Promise<IDataObject> {
		const { token, expires, fingerprint } = await requestToken(this.helpers, credentials);
		return { token, tokenExpires: expires, tokenFingerprint: fingerprint };
	}

	// Having `authenticate` is what puts this credential in n8n's HTTP Request node under
	// "Predefined Credential Type" (that picker offers `has:authenticate` and OAuth types), for calls
	// the node does not cover. No `httpRequestNode`: that would add a credential-only copy of the
	// service to the nodes panel, meant for services without a node.
	//
	// The token goes out only with the values it was fetched with. After the user changes any of
	// them, the stored token is refused here, before anything is sent, as a 401 would refuse it:
	// n8n then runs preAuthentication for what is entered now (in runs, in the HTTP Request node and
	// in the credential dialog's Test, which otherwise tests an edited credential with its stored
	// token, so an unreachable new Base URL showed only n8n's bare ECONNREFUSED) and authenticates
	// again with the fresh token.
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		if (!tokenMatchesCredential(credentials)) throw new StoredTokenMismatch();
		// In the HTTP Request node, whose redirects the user chooses: n8n would copy the token to any host
		// one names (its default); the package's own calls follow none.
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.token)}` },
			sendCredentialsOnCrossOriginRedirect: false,
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: ENDPOINTS.listGroups.path,
			skipSslCertificateValidation: '={{$credentials.allowUnauthorizedCerts}}',
			// As the nodes' calls: a redirect is reported, not followed with the token.
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: { key: 'success', value: false, message: 'The API refused the request' },
			},
		],
	};
}
