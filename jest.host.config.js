/**
 * The host suites (test/host, `npm run test:host`): the nodes in the n8n-core and n8n-workflow of a
 * real n8n 2.41.1 (the e2e lanes' install), for what only a newer host than the one the package builds
 * against can show. n8n-workflow is the host's own behind test/host/n8nWorkflow.ts, which notes the
 * `failure` option each node error was given. Without the install nothing is mapped: the suites skip,
 * saying why (or fail, under .ci/run: SATELLITE_HOST_SUITES_REQUIRED).
 */
const path = require('node:path');

const base = require('./jest.config.js');
const { HOST_MODULES, hostInstalled } = require('./test/host/host.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	testMatch: ['<rootDir>/test/host/**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	moduleNameMapper: hostInstalled
		? {
				'^n8n-workflow$': '<rootDir>/test/host/n8nWorkflow.ts',
				'^n8n-core$': path.join(HOST_MODULES, 'n8n-core'),
			}
		: {},
	// After a poll in n8n-core 2.41, something held the process about 30 s past the suite's end (not
	// found: --detectOpenHandles lists nothing, loading n8n-core alone exits at once).
	forceExit: true,
};
