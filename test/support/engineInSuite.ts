/**
 * Whether the running jest suite loaded n8n-core's engine (test/support/engine.ts marks it): only
 * then does after-env.ts have n8n-core's timers to stop. Each suite has a global object of its own.
 */
const ENGINE_LOADED = Symbol.for('satellite-tracking.test.engine-loaded');

type Marked = { [ENGINE_LOADED]?: true };

export function markEngineLoaded(): void {
	(globalThis as Marked)[ENGINE_LOADED] = true;
}

export function engineLoaded(): boolean {
	return (globalThis as Marked)[ENGINE_LOADED] === true;
}
