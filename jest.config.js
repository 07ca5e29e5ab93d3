/** @type {import('jest').Config} */
module.exports = {
	// node, with the zone guard in each suite (test/support/hostZones.ts).
	testEnvironment: '<rootDir>/test/support/zoneGuardEnvironment.ts',
	// Type errors are caught by `tsc -p tsconfig.dev.json` before jest runs; transpiling only keeps
	// the suites fast.
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/nodes/**/*.test.ts', '<rootDir>/sandbox/**/*.test.ts'],
	// The host suites run in a real n8n's n8n-core and n8n-workflow: jest.host.config.js, `npm run test:host`.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/host/'],
	// Most suites wait on HTTP to the sandbox and on timers: two workers overlap the waits on 2 cores.
	maxWorkers: 2,
	setupFiles: ['<rootDir>/test/support/env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/support/after-env.ts'],
	testTimeout: 60_000,
};
