import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { ModernFakeTimers } from '@jest/fake-timers';
import NodeEnvironment from 'jest-environment-node';

import { installZoneGuard } from './zoneGuard';

/**
 * jest's node environment with the zone guard (test/support/zoneGuard.ts) in each suite's global
 * object. jest's fake timers keep the Date they find when made: made again after the guard, their
 * fake Date builds on the watched one, so a suite that fakes Date is still seen.
 */
export default class ZoneGuardEnvironment extends NodeEnvironment {
	constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
		super(config, context);
		const global = this.global as unknown as typeof globalThis;
		installZoneGuard(global);
		this.fakeTimersModern = new ModernFakeTimers({ config: config.projectConfig, global });
	}
}
