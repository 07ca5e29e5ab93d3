/**
 * The queue-mode lane's Redis and PostgreSQL: throw-away instances on free loopback ports, with their
 * data in the lane's temp folder, each in its own process group (scripts/n8n/processes.ts), so they
 * are stopped by their PID whatever happens. The binaries come from Debian's packages, installed by
 * scripts/e2e/queue/install-services.sh when missing; the system services those packages set up are
 * never used.
 *
 * PostgreSQL refuses to run as root: as root, initdb and postgres run as the `postgres` OS user the
 * Debian package creates (setpriv), and the data folder is handed to that user.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { delay, fail, freePort, runCommand, seconds, startLogged, stopProcess, tail, type Started } from '../../n8n/processes';
import { hermeticEnv, REPO } from '../../n8n/setup';

const READY_TIMEOUT_MS = 30_000;
/** The database n8n uses; its owner is the superuser initdb creates, with trust auth on loopback. */
export const PG_DATABASE = 'n8n';
export const PG_USER = 'n8n';

export interface Services {
	redisPort: number;
	pgPort: number;
	/** Runs one SQL statement with psql and returns its unaligned, tuples-only output. */
	sql(statement: string): Promise<string>;
	/** Stops PostgreSQL and Redis (each by its process group). */
	stop(): Promise<void>;
}

interface Binaries {
	redisServer: string;
	pgBin: string;
}

/** scripts/e2e/queue/install-services.sh: installs the Debian packages if missing, prints where they are. */
export function installServices(): Binaries {
	const result = spawnSync('bash', [path.join(REPO, 'scripts', 'e2e', 'queue', 'install-services.sh')], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const value = (name: string) => new RegExp(`^${name}=(.+)$`, 'm').exec(result.stdout ?? '')?.[1];
	const redisServer = value('REDIS_SERVER');
	const pgBin = value('PG_BIN');
	if (result.status !== 0 || !redisServer || !pgBin) {
		fail(`install-services.sh failed (exit ${result.status}):\n${tail(result.stdout ?? '')}`);
	}
	return { redisServer, pgBin };
}

/** The command prefix that runs PostgreSQL's programs as a non-root user. */
function asPostgresUser(): string[] {
	if (process.getuid?.() !== 0) return [];
	const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
	if (id.status !== 0) fail('running as root, but there is no `postgres` OS user to run PostgreSQL as (the Debian package creates it)');
	return ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', '--'];
}

async function waitForLine(started: Started, label: string, pattern: RegExp): Promise<void> {
	const t0 = Date.now();
	while (!pattern.test(started.output())) {
		const { exitCode, signalCode } = started.child;
		if (exitCode !== null || signalCode !== null) fail(`${label} exited (code ${exitCode}, signal ${signalCode}) before it was ready\n${tail(started.output())}`);
		if (Date.now() - t0 > READY_TIMEOUT_MS) fail(`${label} not ready within ${seconds(READY_TIMEOUT_MS)}\n${tail(started.output())}`);
		await delay(100);
	}
}

export async function startServices(tmpDir: string, logDir: string): Promise<Services> {
	const { redisServer, pgBin } = installServices();
	const env = hermeticEnv();
	const started: Array<{ process: Started; label: string }> = [];
	const stop = async () => {
		// PostgreSQL first (n8n is gone by now), then Redis; newest first.
		for (const { process, label } of started.reverse()) await stopProcess(process.child, label, 10_000);
	};
	try {
		const redisDir = path.join(tmpDir, 'redis');
		fs.mkdirSync(redisDir);
		const redisPort = await freePort();
		const redis = startLogged(
			redisServer,
			['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir],
			{ env, cwd: redisDir, logFile: path.join(logDir, 'redis.log') },
		);
		started.push({ process: redis, label: 'redis-server' });

		const pgDir = path.join(tmpDir, 'postgres');
		const dataDir = path.join(pgDir, 'data');
		fs.mkdirSync(pgDir);
		const asUser = asPostgresUser();
		if (asUser.length > 0) {
			// The lane's temp folder is root's (mode 0700): the postgres user needs to pass through it.
			fs.chmodSync(tmpDir, 0o711);
			spawnSync('chown', ['postgres:postgres', pgDir]);
		}
		const [initdb, ...initdbPrefix] = [...asUser, path.join(pgBin, 'initdb')];
		const init = await runCommand(initdb, [...initdbPrefix, '-D', dataDir, '-U', PG_USER, '--auth=trust', '-E', 'UTF8', '--no-sync'], {
			env,
			cwd: pgDir,
			logFile: path.join(logDir, 'initdb.log'),
			timeoutMs: 120_000,
		});
		if (init.code !== 0) fail(`initdb failed (exit ${init.code})\n${tail(init.stdout + init.stderr)}`);

		const pgPort = await freePort();
		const [postgres, ...postgresPrefix] = [...asUser, path.join(pgBin, 'postgres')];
		const pg = startLogged(
			postgres,
			[
				...postgresPrefix,
				'-D', dataDir,
				'-p', String(pgPort),
				'-c', 'listen_addresses=127.0.0.1',
				'-c', `unix_socket_directories=${pgDir}`,
				// A throw-away database: durability buys nothing here, and the machine is shared.
				'-c', 'fsync=off',
				'-c', 'synchronous_commit=off',
				'-c', 'full_page_writes=off',
			],
			{ env, cwd: pgDir, logFile: path.join(logDir, 'postgres.log') },
		);
		started.push({ process: pg, label: 'postgres' });

		await waitForLine(redis, 'redis-server', /Ready to accept connections/);
		await waitForLine(pg, 'postgres', /database system is ready to accept connections/);

		const sql = async (statement: string, database = PG_DATABASE): Promise<string> => {
			const r = await runCommand(path.join(pgBin, 'psql'), ['-h', '127.0.0.1', '-p', String(pgPort), '-U', PG_USER, '-d', database, '-v', 'ON_ERROR_STOP=1', '-Atc', statement], {
				env,
				cwd: pgDir,
				timeoutMs: 30_000,
			});
			if (r.code !== 0) fail(`psql ${JSON.stringify(statement)} failed (exit ${r.code}): ${r.stderr.trim()}`);
			return r.stdout.trim();
		};
		await sql(`CREATE DATABASE ${PG_DATABASE}`, 'postgres');
		return { redisPort, pgPort, sql, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

/** What every n8n process of the lane needs to find the shared database and queue. */
export function queueModeEnv(services: Services): NodeJS.ProcessEnv {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(services.pgPort),
		DB_POSTGRESDB_DATABASE: PG_DATABASE,
		DB_POSTGRESDB_USER: PG_USER,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(services.redisPort),
	};
}
