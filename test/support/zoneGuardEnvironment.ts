import { relative } from 'node:path';

import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { ModernFakeTimers } from '@jest/fake-timers';
import NodeEnvironment from 'jest-environment-node';

import { ROOT } from './hostZones';
import { installZoneGuard, type ZoneGuard } from './zoneGuard';

/**
 * jest's node environment with the zone guard (test/support/zoneGuard.ts) in each suite's global
 * object: the suite fails when it, the package or a library asked the host's time zone. jest's fake
 * timers keep the Date they find when made: made again after the guard, their fake Date builds on
 * the watched one. The check runs at teardown, after every hook of the suite.
 */
export default class ZoneGuardEnvironment extends NodeEnvironment {
	private readonly guard: ZoneGuard;
	private readonly suite: string;

	constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
		super(config, context);
		const global = this.global as unknown as typeof globalThis;
		this.guard = installZoneGuard(global);
		this.fakeTimersModern = new ModernFakeTimers({ config: config.projectConfig, global });
		this.suite = relative(ROOT, context.testPath);
	}

	async teardown(): Promise<void> {
		await super.teardown();
		const calls = this.guard.calls();
		if (calls.length === 0) return;
		throw new Error(
			`${this.suite} asks the host's time zone:\n  ${calls.join('\n  ')}\n` +
				'Name the zone meant: UTC getters, a timeZone option, a date-time text with its offset (test/support/hostZones.ts).',
		);
	}
}
