/** Reading the trigger's state back from workflow static data. Pure. */
import { isRecord } from '../../shared/validation';
import { STATE_VERSION, type TriggerState } from './types';

export function emptyState(): TriggerState {
	return { version: STATE_VERSION, devices: {} };
}

/**
 * A plain copy of what was stored, or an empty state (a fresh baseline) when nothing usable was:
 * a first activation, or data of another version.
 */
export function readState(stored: unknown): TriggerState {
	if (!isRecord(stored) || stored.version !== STATE_VERSION || !isRecord(stored.devices)) return emptyState();
	return JSON.parse(JSON.stringify(stored)) as TriggerState;
}
