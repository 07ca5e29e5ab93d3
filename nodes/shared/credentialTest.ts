import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { describeFailure, describeHttpFailure } from './transport/errors';
import { unwrapEnvelope } from './transport/envelope';
import { DEFAULT_TIMEOUT_SECONDS, requestToken, TOKEN_TIMEOUT_FIELD } from './transport/token';
import { joinUrl } from './transport/url';
import { ENDPOINTS, TOKEN_PATH } from './wire';

/** The name both nodes give n8n in `credentials: [{ testedBy }]` for their `methods.credentialTest`. */
export const CREDENTIAL_TEST = 'satelliteTrackingApiTest';

type LegacyRequest = ICredentialTestFunctions['helpers']['request'];

/**
 * n8n hands a credential test only its older `request` helper: the token exchange, written for
 * `httpRequest`, is given one that speaks through it, so the test and every run exchange the key
 * the same way (the same trimming, URL joining, timeout and failure messages).
 */
function httpRequestThrough(request: LegacyRequest): IHttpRequestHelper['helpers'] {
	const httpRequest = async (options: IHttpRequestOptions) =>
		await request({
			method: options.method,
			uri: options.url,
			headers: options.headers,
			body: options.body,
			json: options.json,
			timeout: options.timeout,
			rejectUnauthorized: options.skipSslCertificateValidation !== true,
			resolveWithFullResponse: options.returnFullResponse === true,
			simple: options.ignoreHttpStatusErrors !== true,
		});
	return { httpRequest } as IHttpRequestHelper['helpers'];
}

/** The failure as one line a user reads in the credential dialog: what happened, then what to check. */
function said(failure: { message: string; description?: string }): INodeCredentialTestResult {
	return { status: 'Error', message: failure.description ? `${failure.message}. ${failure.description}` : failure.message };
}

/**
 * The credential dialog's Test: a fresh token exchange with the values entered (never a token stored
 * from other values), then one authorised read, as a run would make them. n8n's declarative test
 * showed a bare `ECONNREFUSED` or "Invalid URL" where runs say what failed and what to check.
 */
export async function testCredential(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const data: ICredentialDataDecryptedObject = { ...(credential.data ?? {}), token: '' };
	const baseUrl = String(data.baseUrl ?? '');
	let url = joinUrl(baseUrl, TOKEN_PATH);
	if (!URL.canParse(url)) {
		return said({ message: `The Base URL "${baseUrl.trim()}" is not a web address`, description: 'Enter it with its scheme, e.g. https://api.plaspy.com' });
	}
	const helpers = httpRequestThrough(this.helpers.request);
	try {
		const { token } = await requestToken(helpers, data);
		url = joinUrl(baseUrl, ENDPOINTS.listGroups.path);
		const response = (await helpers.httpRequest({
			method: ENDPOINTS.listGroups.method,
			url,
			headers: { Authorization: `Bearer ${token}` },
			json: true,
			ignoreHttpStatusErrors: true,
			returnFullResponse: true,
			skipSslCertificateValidation: data.allowUnauthorizedCerts === true,
			// The token exchange's timeout, which a caller may set on the data as runs do.
			timeout: Number(data[TOKEN_TIMEOUT_FIELD]) > 0 ? Number(data[TOKEN_TIMEOUT_FIELD]) : DEFAULT_TIMEOUT_SECONDS * 1000,
		})) as { statusCode: number; body: unknown; headers?: Record<string, unknown> };
		if (response.statusCode < 200 || response.statusCode > 299) {
			return said(describeHttpFailure(response.statusCode, response.body, response.headers ?? {}));
		}
		unwrapEnvelope(ENDPOINTS.listGroups, response.body);
	} catch (error) {
		return said(describeFailure(error, url));
	}
	return { status: 'OK', message: 'Connection successful!' };
}
