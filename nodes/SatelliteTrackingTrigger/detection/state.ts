/** Reading the trigger's state back from workflow static data. Pure. */
import { isRecord } from '../../shared/validation';
import { STATE_VERSION, type TriggerState } from './types';

export function emptyState(): TriggerState {
	return { version: STATE_VERSION, devices: {} };
}

/**
 * What was stored, or an empty state (a fresh baseline) when nothing usable was: a first activation,
 * or data of another version. Not copied: detection never changes the state it is given (the tests
 * freeze it, test/support/trigger.ts), and copying 5,000 devices' state was a tenth of what a poll
 * allocates of its own (bench P3).
 */
export function readState(stored: unknown): TriggerState {
	if (!isRecord(stored) || stored.version !== STATE_VERSION || !isRecord(stored.devices)) return emptyState();
	return stored as unknown as TriggerState;
}
