/**
 * `npm run sandbox -- [options]`: the sandbox as a separate process, for the demo, benches and the
 * real-n8n e2e run. Scripts wait for the line `SANDBOX_READY <url>`.
 */
import { DEMO_API_KEY, DEMO_USER_NAME, startSandbox, type SandboxOptions } from './server';
import { generateSelfSignedCert } from './tls';

const USAGE = `Usage: tsx sandbox/cli.ts [options]
  --port N                 default 8787 (0: any free port)
  --host H                 default 127.0.0.1
  --base-path /prefix      serve the API under a path prefix
  --seed N                 default 1
  --devices N              default 24
  --users N                default 30
  --latency MS             delay every API answer
  --rate-limit N/MS        e.g. 60/60000: N requests per MS per account
  --no-retry-after         omit Retry-After on 429
  --token-lifetime S       token lifetime in seconds (default 3600)
  --token-failure-status N 200 or 401 (default 401)
  --https                  serve HTTPS with a fresh self-signed certificate (needs openssl)`;

function parseArguments(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 8787 };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => {
			const next = argv[++i];
			if (next === undefined) fail(`${flag} needs a value.`);
			return next;
		};
		const number = () => toNumber(flag, value());
		switch (flag) {
			case '--port': options.port = number(); break;
			case '--host': options.host = value(); break;
			case '--base-path': options.basePath = value(); break;
			case '--seed': options.seed = number(); break;
			case '--devices': options.deviceCount = number(); break;
			case '--users': options.userCount = number(); break;
			case '--latency': options.latencyMs = number(); break;
			case '--rate-limit': options.rateLimit = parseRateLimit(value()); break;
			case '--no-retry-after': options.retryAfterHeader = false; break;
			case '--token-lifetime': options.tokenLifetimeSeconds = number(); break;
			case '--token-failure-status': options.tokenFailureStatus = number(); break;
			case '--https': options.https = generateSelfSignedCert(); break;
			case '--help': console.log(USAGE); process.exit(0);
			default: fail(`Unknown option ${flag}.`);
		}
	}
	return options;
}

function parseRateLimit(text: string): SandboxOptions['rateLimit'] {
	const match = /^(\d+)\/(\d+)$/.exec(text);
	if (!match) fail(`--rate-limit takes N/windowMs, e.g. 60/60000; got "${text}".`);
	return { requests: Number(match[1]), windowMs: Number(match[2]) };
}

function toNumber(flag: string, text: string): number {
	const number = Number(text);
	if (!Number.isFinite(number)) fail(`${flag} takes a number; got "${text}".`);
	return number;
}

function fail(message: string): never {
	console.error(`${message}\n\n${USAGE}`);
	process.exit(2);
}

async function main(): Promise<void> {
	const sandbox = await startSandbox(parseArguments(process.argv.slice(2)));
	console.log(
		[
			'Satellite tracking sandbox',
			`  Base URL:  ${sandbox.url}`,
			`  User name: ${DEMO_USER_NAME}`,
			`  API key:   ${DEMO_API_KEY}`,
			`  Control:   ${sandbox.rootUrl}/__sandbox/stats  ·  sink: ${sandbox.rootUrl}/__sink/<anything>`,
			`SANDBOX_READY ${sandbox.url}`,
		].join('\n'),
	);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	console.error(`Sandbox failed to start: ${error.message}`);
	process.exit(1);
});
