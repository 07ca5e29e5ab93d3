import { ensure, ensureRunSucceeded, nodeItems, nodeRunItems, type ExampleExpectation } from '../lib';

const CSV_NODE = 'HR export (CSV)';
const UPSERT_NODE = 'Create or update user';

interface Write {
	kind: string;
	resource: string;
	body?: Record<string, unknown>;
}

// examples/hr-sync.json: the CSV in the Code node is parsed into one item per person, and each is
// created or updated in the tracking account, matched by e-mail.
const expectation: ExampleExpectation = {
	id: 'exampleHrSync01',
	sinks: {},
	description: 'examples/hr-sync.json: CSV export (Code node) → user upsert by e-mail',
	async check(run, ctx) {
		ensureRunSucceeded(run);

		const rows = nodeItems(run, CSV_NODE);
		ensure(rows.length === 4, `${CSV_NODE}: expected 4 rows from the CSV, got ${rows.length}: ${JSON.stringify(rows)}`);
		ensure(
			rows.some((r) => r.fullName === 'Okafor, David'),
			`${CSV_NODE}: the quoted field "Okafor, David" was not read as one value: ${JSON.stringify(rows.map((r) => r.fullName))}`,
		);
		ensure(rows.every((r) => typeof r.active === 'boolean'), `${CSV_NODE}: active should be a boolean: ${JSON.stringify(rows)}`);

		const results = nodeRunItems(run, UPSERT_NODE);
		ensure(results.length === rows.length, `${UPSERT_NODE}: expected ${rows.length} items (one per row), got ${results.length}`);
		for (const [i, item] of results.entries()) {
			const out = item.json;
			const user = out.user as Record<string, unknown> | undefined;
			const shown = JSON.stringify(out);
			ensure(out.action === 'created', `${UPSERT_NODE} item ${i}: expected action "created" (fresh sandbox), got ${shown}`);
			ensure(user?.email === rows[i].email, `${UPSERT_NODE} item ${i}: user e-mail ${String(user?.email)}, expected ${String(rows[i].email)}`);
			ensure(user?.name === rows[i].fullName, `${UPSERT_NODE} item ${i}: user name ${String(user?.name)}, expected ${String(rows[i].fullName)}`);
			ensure(user?.disabled === !rows[i].active, `${UPSERT_NODE} item ${i}: disabled ${String(user?.disabled)}, expected ${String(!rows[i].active)}`);
			ensure(item.pairedItem !== undefined, `${UPSERT_NODE} item ${i} has no pairedItem`);
		}

		// The sandbox received one create per person, with the CSV's values.
		const writes = (await ctx.sandboxJson('/__sandbox/writes')) as Write[];
		for (const row of rows) {
			const created = writes.filter((w) => w.resource === 'user' && w.kind === 'create' && w.body?.email === row.email);
			ensure(created.length === 1, `sandbox: expected one user create for ${String(row.email)}, saw ${created.length}`);
			const tags = created[0].body?.tags as Record<string, unknown> | undefined;
			ensure(
				tags?.department === row.department && tags?.source === 'hr-sync',
				`sandbox: user ${String(row.email)} created with tags ${JSON.stringify(tags)}`,
			);
		}
	},
};

export default expectation;
