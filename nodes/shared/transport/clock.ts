import { sleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

// Date.now read at each call, so a test's fake timers reach it.
export const systemClock: Clock = { now: () => Date.now(), sleep };
