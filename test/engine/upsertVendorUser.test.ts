/**
 * Issue 12: Upsert over the vendor's own user example converges. The first run creates the user as
 * the vendor writes it ("USA", group "Admins", privileges as verbs); a second identical run, or one
 * naming the country "US" or "United States", sends nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { jsonOf, useSandbox } from '../support/sandboxed';

const { users } = JSON.parse(readFileSync(join(__dirname, '..', 'contract', 'vendor', 'get__api_users.example-successful-response.json'), 'utf8'));
const vendorUser = users[0] as Record<string, any>;

const h = useSandbox();

const upsert = (country: string) =>
	h.engine.runNode({
		resource: 'user',
		operation: 'upsert',
		name: vendorUser.name,
		email: vendorUser.email,
		country,
		timeZone: vendorUser.timeZone,
		additionalFields: {
			description: vendorUser.description,
			tags: { entries: Object.entries(vendorUser.tags).map(([key, value]) => ({ key, value })) },
			privileges: vendorUser.privileges.join(', '),
			group: vendorUser.group,
			deviceId: vendorUser.deviceId,
			adminDevices: vendorUser.adminDevices,
			from: vendorUser.from,
			expires: vendorUser.expires,
		} as never,
	});

const writes = () => h.sandbox.requestLog.filter((entry) => entry.method !== 'GET' && entry.route !== 'POST /api/Auth/Token');

it("creates the vendor's user once, then sends nothing, whichever way the country is written", async () => {
	const first = await upsert(vendorUser.country);
	expect(first.error).toBeUndefined();
	expect(jsonOf(first.items)).toEqual([{ action: 'created', user: expect.objectContaining({ country: 'USA', group: 'Admins', privileges: ['read', 'write', 'execute'] }) }]);
	for (const country of [vendorUser.country, 'US', 'United States', ' usa ', 'united states', 'UNITED STATES ', 'us']) {
		h.sandbox.resetStats();
		const again = await upsert(country);
		expect(again.error).toBeUndefined();
		expect(jsonOf(again.items)).toEqual([{ action: 'unchanged', user: expect.objectContaining({ email: vendorUser.email, country: 'USA' }) }]);
		expect(writes()).toEqual([]);
	}
});
