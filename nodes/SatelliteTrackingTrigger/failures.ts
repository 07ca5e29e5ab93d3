/**
 * Every error a poll throws declares why (n8n's `failure`, see shared/transport/failure.ts), so that
 * n8n's durable scheduler backs off as the cause deserves: waits as long as a rate limit asks, and
 * waits long when only the user can help.
 */
import { ExecutionBaseError, NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { declare, failureOf, withFailureOption, type DeclaredFailure } from '../shared/transport/failure';

/**
 * `error` with its cause declared: the transport's when it gave one, else told from what it is. As an
 * n8n error: n8n stores a failed poll's error as JSON, and only their `toJSON` keeps the message (a
 * bare one left the execution saying "Problem in node" and nothing more).
 */
export function declaredPollError(node: INode, error: unknown): Error {
	const thrown = error instanceof Error ? error : new NodeOperationError(node, String(error));
	const failure = failureOf(thrown) ?? { cause: causeOf(thrown) };
	return declare(asNodeError(node, thrown, failure), failure);
}

/**
 * `error` as an n8n error, given `failure` through n8n's option. n8n's own node errors go through
 * their constructor again, which hands back the error it was given (n8n 2.37+ with the failure
 * set: "the declaration has to land on it"). A wrapper of any other error keeps where it was
 * thrown: its own stack would start here, and n8n sets no cause.
 */
function asNodeError(node: INode, error: Error, failure: DeclaredFailure): Error {
	const option = withFailureOption(failure);
	if (error instanceof NodeApiError) return new NodeApiError(node, error as unknown as JsonObject, option);
	if (error instanceof NodeOperationError) return new NodeOperationError(node, error, option);
	if (error instanceof ExecutionBaseError) return error;
	return Object.assign(new NodeOperationError(node, error, option), { stack: error.stack, cause: error });
}

function causeOf(error: Error): DeclaredFailure['cause'] {
	// Settings the user entered: a bad value, a budget too small, a group or devices gone.
	if (error instanceof NodeOperationError) return 'configuration-invalid';
	const status = Number((error as { httpCode?: unknown }).httpCode);
	// A fresh token refused for the call: the account lost its API access.
	if (status === 401) return 'credential-invalid';
	if (status === 403 || status === 404) return 'configuration-invalid';
	return 'node-defect';
}
