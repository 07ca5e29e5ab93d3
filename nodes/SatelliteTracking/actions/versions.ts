import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Saved workflows of node version 1 behave exactly as they did when saved: each behaviour version 2
 * changed asks this (readable output, Alert Name and Send Command sent as typed, Group Update's ops).
 */
export function isVersion1(context: IExecuteFunctions): boolean {
	return context.getNode().typeVersion < 2;
}

/**
 * Version 2.1: Limit on a date range keeps its newest results (the usual wish: "the last N
 * positions"); saved workflows of 1 and 2 keep the oldest, as they did.
 */
export function limitKeepsNewest(context: IExecuteFunctions): boolean {
	return context.getNode().typeVersion >= 2.1;
}
