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

/**
 * Arrays and objects nested deeper than this are refused. JSON.parse takes any depth, but what then
 * walks the value recursively does not: a 200,000-deep body overflowed the stack of the request log's
 * JSON.stringify, and GET /__sandbox/requests failed from then on. The vendor's bodies nest 3 deep.
 */
export const MAX_JSON_DEPTH = 64;

/** undefined for an empty body; throws 415 for a declared non-JSON type and 400 for unparsable or too deep JSON. */
export function parseJson(raw: Buffer, contentType: string | undefined): unknown {
	if (raw.length === 0) return undefined;
	if (contentType && !/[/+]json\b/i.test(contentType)) {
		throw new ApiError(415, `Unsupported Content-Type "${contentType}": send application/json.`);
	}
	const text = raw.toString('utf8');
	if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
		throw new ApiError(400, `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
	}
	try {
		return JSON.parse(text);
	} catch {
		throw new ApiError(400, 'The request body is not valid JSON.');
	}
}

/**
 * Bodies larger than this are logged by their size only: the request log keeps 10,000 entries, and a
 * client posting 5 MB bodies would otherwise hold gigabytes and make the log unservable.
 */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024;

/** For logs: as `lenientBody` reads it, or a note of its size when over MAX_LOGGED_BODY_BYTES. */
export function bodyForLog(raw: Buffer): unknown {
	if (raw.length > MAX_LOGGED_BODY_BYTES) return `(${raw.length} bytes, over the ${MAX_LOGGED_BODY_BYTES} the log keeps)`;
	return lenientBody(raw);
}

/** The parsed JSON when there is some (and it is not too deep to serialise), else the text as sent. */
export function lenientBody(raw: Buffer): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return text;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/** Counts brackets outside strings; a malformed text is for JSON.parse to refuse. */
function nestsDeeperThan(text: string, maxDepth: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === '[' || char === '{') {
			if (++depth > maxDepth) return true;
		} else if (char === ']' || char === '}') depth--;
	}
	return false;
}
