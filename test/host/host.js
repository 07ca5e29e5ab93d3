/**
 * The host suites (test/host, `npm run test:host`, jest.host.config.js): this package's nodes run in
 * the n8n-core and n8n-workflow of a real n8n 2.41.1, the one scripts/e2e/install.sh caches for the
 * e2e lanes, instead of the older ones the package builds against. Plain CommonJS: jest's config reads it.
 */
const { existsSync } = require('node:fs');
const { homedir } = require('node:os');
const { join } = require('node:path');

const HOST_N8N_VERSION = '2.41.1';
const CACHE = process.env.SATELLITE_E2E_CACHE || join(homedir(), '.cache', 'n8n-nodes-satellite-tracking');
/** The install's node_modules: n8n, n8n-core, n8n-workflow and everything they load. */
const HOST_MODULES = join(CACHE, `n8n-${HOST_N8N_VERSION}`, 'node_modules');
/** As scripts/n8n/setup.ts laneInstalled: the installer writes .install-ok last. */
const hostInstalled = existsSync(join(CACHE, `n8n-${HOST_N8N_VERSION}`, '.install-ok')) && existsSync(join(HOST_MODULES, 'n8n', 'package.json'));
/** Set by .ci/run, which installs the host first: there a missing install fails the suites instead of skipping them. */
const hostRequired = process.env.SATELLITE_HOST_SUITES_REQUIRED === '1';

module.exports = { HOST_N8N_VERSION, HOST_MODULES, hostInstalled, hostRequired };
