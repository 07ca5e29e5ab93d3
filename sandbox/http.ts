/** The few HTTP plumbing pieces the sandbox needs on top of node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './apiError';

export interface Answer {
	status: number;
	headers: Record<string, string>;
	body: string;
	/** The value behind a JSON body, for faults that rewrite an answer after it was built. */
	json?: unknown;
}

/** Drop the connection without an answer, as a crashed proxy would. */
export const RESET = 'reset' as const;
export type Outcome = Answer | typeof RESET;

export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): Answer {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		body: JSON.stringify(value),
		json: value,
	};
}

export function textAnswer(status: number, contentType: string, body: string): Answer {
	return { status, headers: { 'content-type': contentType }, body };
}

export function send(response: ServerResponse, answer: Answer): void {
	response.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
	response.end(answer.body);
}

export function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		request.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= maxBytes) chunks.push(chunk);
		});
		request.on('end', () =>
			size > maxBytes ? reject(new ApiError(413, `The request body exceeds ${maxBytes} bytes.`)) : resolve(Buffer.concat(chunks)),
		);
		request.on('error', reject);
	});
}

/** undefined for an empty body; throws 415 for a declared non-JSON type and 400 for unparsable JSON. */
export function parseJson(raw: Buffer, contentType: string | undefined): unknown {
	if (raw.length === 0) return undefined;
	if (contentType && !/[/+]json\b/i.test(contentType)) {
		throw new ApiError(415, `Unsupported Content-Type "${contentType}": send application/json.`);
	}
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		throw new ApiError(400, 'The request body is not valid JSON.');
	}
}

/** For logs: the parsed JSON when there is some, else the text as sent. */
export function bodyForLog(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
