/** What every scenario shares: the sizes of this run, the figures it adds to, and how it reports progress. */
import type { Figure } from './report';

export interface Sizes {
	/** Measured rounds of P2 (ceiling, node and DIY side by side each round); the median is reported. */
	rounds: number;
	/** Items of a warm-up run before P2, so neither side pays for JIT compilation in its figures. */
	warmUpItems: number;
	/** P1: items per execution, and executions sharing one credential. */
	p1Items: number;
	p1Executions: number;
	/** P2 and P2q: input items (one device each). */
	items: number;
	/** P2q: answer latency and the account's quota. */
	quotaLatencyMs: number;
	quota: { requests: number; windowMs: number };
	/** P2q, second row: Max Concurrent Requests raised the way a user in a hurry would. */
	raisedConcurrency: number;
	/** P3: device counts. */
	triggerDevices: number[];
	/** P4: users in the sandbox, items, and the share of items that change or add a user. */
	users: number;
	upsertItems: number;
	changedShare: number;
	newShare: number;
	/** P5: Max Requests per Minute, and requests sent (more than the cap, so the window matters). */
	capPerMinute: number;
	capRequests: number;
	/** P6: workflows started at once on one credential, and items each (against a quota of capPerMinute). */
	sharedWorkflows: number;
	sharedItems: number;
	/** P7: devices the poll beside a single read reads. */
	fairnessDevices: number;
	/** P9: days of fixes at one a minute for Get Trips and Stops. */
	tripDays: number;
	/** P10: the fleet, the device reads a poll allows, and the hours of its day. */
	fleet: { devices: number; readsPerPoll: number; hours: number };
}

export const FULL: Sizes = {
	rounds: 3,
	warmUpItems: 300,
	p1Items: 50,
	p1Executions: 5,
	items: 2000,
	quotaLatencyMs: 20,
	quota: { requests: 200, windowMs: 1000 },
	raisedConcurrency: 20,
	triggerDevices: [1000, 5000],
	users: 10_000,
	upsertItems: 10_000,
	changedShare: 0.3,
	newShare: 0.1,
	capPerMinute: 600,
	capRequests: 800,
	sharedWorkflows: 4,
	sharedItems: 500,
	fairnessDevices: 400,
	tripDays: 30,
	fleet: { devices: 10_000, readsPerPoll: 1000, hours: 10 },
};

/** Tiny sizes for CI: the script keeps working; the figures mean nothing. */
export const SMOKE: Sizes = {
	rounds: 1,
	warmUpItems: 10,
	p1Items: 5,
	p1Executions: 5,
	items: 60,
	quotaLatencyMs: 20,
	quota: { requests: 20, windowMs: 1000 },
	raisedConcurrency: 20,
	triggerDevices: [30, 60],
	users: 200,
	upsertItems: 200,
	changedShare: 0.3,
	newShare: 0.1,
	capPerMinute: 30,
	// Under the cap with the token call counted: the smoke run never waits out a minute.
	capRequests: 20,
	sharedWorkflows: 4,
	sharedItems: 5,
	fairnessDevices: 40,
	tripDays: 2,
	fleet: { devices: 200, readsPerPoll: 20, hours: 2 },
};

export interface BenchContext {
	sizes: Sizes;
	figures: Figure[];
	details: Record<string, unknown>;
	/** Set when n8n's HTTP Request node could be loaded for the DIY runs; otherwise why not. */
	diy: { loaded: true } | { loaded: false; reason: string };
	log(message: string): void;
	/** Full garbage collection, so one run's garbage does not count in the next one's memory. */
	gc(): void;
}
