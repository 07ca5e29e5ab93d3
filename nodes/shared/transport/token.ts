import type { ICredentialDataDecryptedObject, IHttpRequestHelper } from 'n8n-workflow';

import { TOKEN_PATH, type TokenAnswer, type TokenRequest } from '../wire';
import { joinUrl } from './url';

export interface IssuedToken {
	token: string;
	expires: string;
}

const TOKEN_TIMEOUT_MS = 30_000;

// n8n rewraps whatever preAuthentication throws in a NodeApiError that keeps the message, the
// `description` and `httpCode` but drops the error's class; those fields carry what the transport
// needs to know.

export const TOKEN_REFUSED = 'The tracking API refused the user name or API key.';

/**
 * The service refused the user name or API key; the message is the vendor's own text, which is
 * what n8n's credential test shows. No `httpCode`: with one, n8n would replace the message with its
 * generic text for the status.
 */
export class TokenRequestError extends Error {
	readonly description = TOKEN_REFUSED;
}

/** A token call the service could not serve now (quota, outage): the transport may retry it. */
export class TokenUnavailableError extends Error {
	readonly httpCode: string;

	constructor(status: number) {
		super(`The token request answered ${status}`);
		this.httpCode = String(status);
	}
}

/**
 * Exchanges the user name and API key for a bearer token. The service may refuse with any HTTP
 * status (200 included), so the body's `success` decides, and its `error` text is what users see.
 */
export async function requestToken(
	helpers: IHttpRequestHelper['helpers'],
	credentials: ICredentialDataDecryptedObject,
): Promise<IssuedToken> {
	const body: TokenRequest = {
		userName: String(credentials.userName ?? '').trim(),
		apiKey: String(credentials.apiKey ?? '').trim(),
	};
	const response = (await helpers.httpRequest({
		method: 'POST',
		url: joinUrl(String(credentials.baseUrl ?? ''), TOKEN_PATH),
		body,
		json: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		skipSslCertificateValidation: credentials.allowUnauthorizedCerts === true,
		timeout: TOKEN_TIMEOUT_MS,
	})) as { statusCode: number; body: unknown };

	const { statusCode } = response;
	if (statusCode === 429 || statusCode >= 500) {
		throw new TokenUnavailableError(statusCode);
	}
	const answer = response.body as Partial<TokenAnswer> | null;
	if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
		throw new TokenRequestError(
			`The token endpoint answered ${statusCode} without JSON: check the Base URL`,
		);
	}
	if (answer.success !== true || typeof answer.token !== 'string' || answer.token === '') {
		throw new TokenRequestError(
			typeof answer.error === 'string' && answer.error !== ''
				? answer.error
				: 'The token request was refused without a reason',
		);
	}
	return { token: answer.token, expires: typeof answer.expires === 'string' ? answer.expires : '' };
}
