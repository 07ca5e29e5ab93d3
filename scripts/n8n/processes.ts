/**
 * Child processes for the scripts that drive a real n8n (scripts/e2e/run-e2e.ts, scripts/dev.ts,
 * scripts/screenshot.ts), plus the small helpers they share.
 *
 * Every child runs in its own process group (spawned `detached`) and is stopped by that PID: SIGTERM to
 * the group, then SIGKILL to whatever is left (n8n's task runner, tsx's node child). Children still
 * alive when this process exits are SIGKILLed. Nothing is ever stopped by name.
 *
 * Signal handling (Ctrl-C) is each script's own: see {@link signalAll} and {@link stopProcess}.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';

/** Thrown for an expected failure (a missing install, a process that did not start): no stack needed. */
export class SetupFailure extends Error {}

export function fail(message: string): never {
	throw new SetupFailure(message);
}

export function log(message: string): void {
	process.stdout.write(`${message}\n`);
}

export function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

export function tail(text: string, lines = 40): string {
	return text
		.trimEnd()
		.split('\n')
		.slice(-lines)
		.map((l) => `      | ${l}`)
		.join('\n');
}

const usedPorts = new Set<number>();

/**
 * Ports handed out lie below Linux's ephemeral range (32768–60999 by default). A port the kernel gave a
 * listen(0) and took back could go to any process's next outgoing connection before the child bound it:
 * a queue-mode worker failed to start with "Port 43691 is already in use" beside the other CI lanes.
 */
const PORT_RANGE = { from: 20_000, to: 32_767 };

/** A free TCP port on 127.0.0.1, never the same twice in this process (lanes get distinct ports). */
export async function freePort(): Promise<number> {
	for (;;) {
		const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from + 1));
		if (!usedPorts.has(port) && !(await portInUse(port))) {
			usedPorts.add(port);
			return port;
		}
	}
}

/** Whether something already listens on 127.0.0.1:`port` (or it cannot be bound for another reason). */
export function portInUse(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});
}

// ---------------------------------------------------------------------------------------------------
// Processes: each child gets its own process group (detached) and is stopped by that PID.

const live = new Set<ChildProcess>();

/** Number of started process groups not stopped yet. */
export function liveCount(): number {
	return live.size;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (!child.pid) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// ESRCH: the group is gone already.
	}
}

/** Sends `signal` to every process group started here and not stopped yet. */
export function signalAll(signal: NodeJS.Signals): void {
	for (const child of live) killGroup(child, signal);
}

export async function stopProcess(child: ChildProcess, label: string, graceMs = 5_000): Promise<void> {
	if (child.exitCode === null && child.signalCode === null) {
		killGroup(child, 'SIGTERM');
		const exited = await Promise.race([
			new Promise<boolean>((resolve) => child.once('exit', () => resolve(true))),
			delay(graceMs).then(() => false),
		]);
		if (!exited) {
			log(`  ${label} (pid ${child.pid}) ignored SIGTERM; sending SIGKILL`);
		}
	}
	// Also reaches children left behind by a leader that has exited (e.g. n8n's task runner).
	killGroup(child, 'SIGKILL');
	live.delete(child);
}

process.on('exit', () => {
	for (const child of live) killGroup(child, 'SIGKILL');
});

/** A long-running child in its own process group, its stdout+stderr collected and written to `logFile`. */
export interface Started {
	child: ChildProcess;
	output: () => string;
}

export function startLogged(
	command: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): Started {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	live.add(child);
	let output = '';
	const logStream = fs.createWriteStream(options.logFile);
	const onData = (chunk: Buffer) => {
		output += chunk.toString();
		logStream.write(chunk);
	};
	child.stdout!.on('data', onData);
	child.stderr!.on('data', onData);
	child.on('close', () => logStream.end());
	return { child, output: () => output };
}

export interface CommandResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	ms: number;
	timedOut: boolean;
}

export const COMMAND_TIMEOUT_MS = 240_000;

/** Runs a command to its end in its own process group; a timeout SIGKILLs the group. */
export function runCommand(
	command: string,
	args: string[],
	options: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs?: number; logFile?: string },
): Promise<CommandResult> {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		live.add(child);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGKILL');
		}, options.timeoutMs ?? COMMAND_TIMEOUT_MS);
		child.on('error', (error) => {
			clearTimeout(timer);
			live.delete(child);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			// The leader is gone; stop anything it left in its group.
			killGroup(child, 'SIGKILL');
			live.delete(child);
			if (options.logFile) {
				fs.writeFileSync(
					options.logFile,
					`$ ${command} ${args.join(' ')}\n# exit ${code} signal ${signal}${timedOut ? ' (timed out)' : ''}\n` +
						`# --- stdout ---\n${stdout}\n# --- stderr ---\n${stderr}\n`,
				);
			}
			resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
		});
	});
}
