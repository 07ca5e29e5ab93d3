import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import { EnvelopeError, vendorMessage } from './envelope';
import { parseRetryAfter, type FailureFacts } from './retryPolicy';
import { TokenRequestError } from './token';

/** What went wrong with one request, stripped of everything that could carry a secret. */
export interface RequestFailure extends FailureFacts {
	message: string;
	description?: string;
	retryAfterMs?: number;
}

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid.',
	401: 'The token was refused even after a new one was fetched: check the user name and API key.',
	403: 'The account is not allowed to do this.',
	404: 'Nothing exists at this id: check it, or whether it was deleted.',
	408: 'The service timed out waiting for the request.',
	409: 'The request conflicts with what the service holds (for example an e-mail already in use).',
	415: 'The service did not accept the request format.',
	429: "The account's request quota was exceeded and retries did not get through: lower the node's concurrency or set a requests-per-minute cap.",
	500: 'The service failed to process the request.',
	503: 'The service is unavailable: try again later.',
};

const NETWORK_MESSAGES: Record<string, string> = {
	ECONNRESET: 'the connection was reset',
	ECONNREFUSED: 'the connection was refused',
	ECONNABORTED: 'no answer came within the timeout',
	ETIMEDOUT: 'no answer came within the timeout',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be resolved',
	EPIPE: 'the connection was closed while sending',
	ERR_SOCKET_CONNECTION_TIMEOUT: 'the connection timed out',
};

const CERTIFICATE_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/;

interface HttpErrorShape {
	code?: string;
	response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	cause?: unknown;
	message?: string;
}

/** n8n wraps the HTTP client's error in a NodeApiError; the facts live on the innermost one. */
function innermost(error: unknown): HttpErrorShape {
	let current = error as HttpErrorShape;
	while (current?.cause && typeof current.cause === 'object' && !current.response) {
		current = current.cause as HttpErrorShape;
	}
	return current ?? {};
}

function isHtml(data: unknown): boolean {
	return typeof data === 'string' && /^\s*</.test(data);
}

/** The service refused the user name or API key: retrying with the same credential cannot help. */
export function isTokenRefusal(error: unknown): boolean {
	return innermost(error) instanceof TokenRequestError;
}

export function describeFailure(error: unknown, now = Date.now()): RequestFailure {
	if (error instanceof EnvelopeError) {
		return { message: error.message };
	}
	const inner = innermost(error);
	if (inner instanceof TokenRequestError) {
		return { status: 401, message: `Authentication failed: ${inner.message}` };
	}
	const status = inner.response?.status;
	if (status !== undefined) {
		const data = inner.response?.data;
		const text = vendorMessage(data);
		const retryAfterMs = parseRetryAfter(inner.response?.headers?.['retry-after'], now);
		const what = text
			? `: ${text}`
			: isHtml(data)
				? ' with an HTML page instead of JSON (often a proxy or gateway error)'
				: '';
		return {
			status,
			retryAfterMs,
			message: `The tracking API answered ${status}${what}`,
			description: STATUS_HINTS[status],
		};
	}
	const code = inner.code ?? '';
	if (CERTIFICATE_CODE.test(code)) {
		return {
			message: `The server's TLS certificate could not be verified (${code})`,
			description:
				'If this is a test server with a self-signed certificate, turn on "Allow Unauthorized Certificates" in the credential.',
		};
	}
	if (code !== '') {
		return {
			networkCode: code,
			message: `Could not get an answer from the tracking API: ${NETWORK_MESSAGES[code] ?? code}`,
		};
	}
	return { networkCode: 'UNKNOWN', message: `The request to the tracking API failed: ${inner.message ?? 'unknown error'}` };
}

/** A NodeApiError built only from the sanitized failure, so no header or token rides along. */
export function toNodeApiError(node: INode, failure: RequestFailure, itemIndex?: number): NodeApiError {
	const httpCode = failure.status === undefined ? undefined : String(failure.status);
	return new NodeApiError(node, { message: failure.message, httpCode: httpCode ?? null } as JsonObject, {
		message: failure.message,
		description: failure.description,
		httpCode,
		itemIndex,
	});
}
