/**
 * `n8n-workflow` in the host suites (jest.host.config.js): the host's own module, whose NodeApiError
 * and NodeOperationError are wrapped to note the `failure` option each error was given (a re-wrap,
 * which hands back the error it was given, counts for that error). A node that set only the plain
 * property afterwards declares the same failure, yet without n8n's API: a suite tells the two apart here.
 * The classes stay n8n's (a Proxy: `instanceof`, statics and subclasses behave as n8n's own).
 */
import { join } from 'node:path';

import type * as Workflow from 'n8n-workflow';

import { HOST_MODULES } from './host';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const host = require(join(HOST_MODULES, 'n8n-workflow')) as typeof Workflow;

const failureOptions = new WeakMap<object, unknown>();

/** The `failure` option the host's NodeApiError/NodeOperationError constructor was given for `error`. */
function failureOptionGiven(error: unknown): unknown {
	return typeof error === 'object' && error !== null ? failureOptions.get(error) : undefined;
}

function noting<C extends abstract new (...args: never[]) => object>(errorClass: C): C {
	return new Proxy(errorClass, {
		construct(target, args: unknown[], newTarget) {
			const error = Reflect.construct(target, args, newTarget) as object;
			const failure = (args[2] as { failure?: unknown } | undefined)?.failure;
			if (failure !== undefined) failureOptions.set(error, failure);
			return error;
		},
	});
}

export = { ...host, NodeApiError: noting(host.NodeApiError), NodeOperationError: noting(host.NodeOperationError), failureOptionGiven };
