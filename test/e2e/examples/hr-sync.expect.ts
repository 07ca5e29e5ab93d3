import { ensure, ensureRunSucceeded, nodeItems, nodeRunItems, sinkEntries, type ExampleExpectation } from '../lib';

const ROSTER_NODE = 'Roster from CSV';
const PREVIEW_NODE = 'Sync users (preview)';
const APPLY_NODE = 'Sync users (apply)';
const SINK = 'hr-sync-plan';

interface Write {
	kind: string;
	resource: string;
	id?: string;
	body?: unknown;
	/** When the sandbox applied it (ms since the epoch; same machine as n8n). */
	at: number;
}

// examples/hr-sync.json: a sample CSV becomes a file, n8n's Extract From File reads it into one item per
// person, Sync previews the plan (writing nothing), the plan is posted to chat (the sandbox's sink), and
// Sync applies it. The e2e's sandbox is fresh, so every person on the roster joins: nobody loses access,
// so the plan goes straight to Apply, past the approval step a plan with leavers waits in.
const expectation: ExampleExpectation = {
	id: 'exampleHrSync01',
	sinks: { 'Post plan to chat': SINK },
	description: 'examples/hr-sync.json: CSV file → Extract From File → Sync preview → chat → Sync apply',
	async check(run, ctx) {
		ensureRunSucceeded(run);

		const rows = nodeItems(run, ROSTER_NODE);
		ensure(rows.length === 5, `${ROSTER_NODE}: expected 5 rows from the CSV, got ${rows.length}: ${JSON.stringify(rows)}`);
		ensure(
			rows.some((r) => r.name === 'Okafor, David'),
			`${ROSTER_NODE}: the quoted field "Okafor, David" was not read as one value: ${JSON.stringify(rows.map((r) => r.name))}`,
		);

		const plan = nodeRunItems(run, PREVIEW_NODE);
		ensure(plan.length === rows.length, `${PREVIEW_NODE}: expected ${rows.length} plan items, got ${plan.length}`);
		for (const [i, item] of plan.entries()) {
			const shown = JSON.stringify(item.json);
			ensure(item.json.action === 'created' && item.json.mode === 'preview', `${PREVIEW_NODE} item ${i}: expected a planned creation, got ${shown}`);
			ensure(item.json.email === rows[i].email, `${PREVIEW_NODE} item ${i}: e-mail ${String(item.json.email)}, expected ${String(rows[i].email)}`);
			ensure(item.json.userId === null && item.json.refusal === undefined, `${PREVIEW_NODE} item ${i}: ${shown}`);
			ensure(JSON.stringify(item.pairedItem) === JSON.stringify({ item: i }), `${PREVIEW_NODE} item ${i}: pairedItem ${JSON.stringify(item.pairedItem)}`);
		}

		const messages = await sinkEntries(ctx, SINK);
		ensure(messages.length === 1, `sink /${SINK}: expected one chat message with the plan, got ${messages.length}`);
		const text = (messages[0].body as Record<string, unknown> | undefined)?.text;
		ensure(
			typeof text === 'string' &&
				text.startsWith('HR sync plan (nothing written yet): will create 5.') &&
				rows.every((r) => text.includes(`will create ${String(r.email)}`)) &&
				text.endsWith('Nobody loses access: applying it now.'),
			`sink /${SINK}: expected the plan naming every joiner, got ${JSON.stringify(messages[0].body)}`,
		);

		// Apply found nobody yet: the preview wrote nothing.
		const applied = nodeRunItems(run, APPLY_NODE);
		ensure(applied.length === rows.length, `${APPLY_NODE}: expected ${rows.length} items, got ${applied.length}`);
		for (const [i, item] of applied.entries()) {
			const shown = JSON.stringify(item.json);
			ensure(item.json.action === 'created' && item.json.mode === 'apply', `${APPLY_NODE} item ${i}: expected "created", got ${shown}`);
			ensure(typeof item.json.userId === 'string' && item.json.userId !== '', `${APPLY_NODE} item ${i}: no userId in ${shown}`);
			// Given the Preview's planId (Options → Approved Plan), Apply ran exactly that plan.
			ensure(item.json.planId === plan[0].json.planId, `${APPLY_NODE} item ${i}: planId ${String(item.json.planId)}, the approved plan is ${String(plan[0].json.planId)}`);
		}

		const writes = ((await ctx.sandboxJson('/__sandbox/writes')) as Write[]).filter((w) => w.resource === 'user');
		for (const row of rows) {
			const created = writes.filter((w) => w.kind === 'create' && (w.body as Record<string, unknown>)?.email === row.email);
			ensure(created.length === 1, `sandbox: expected one user create for ${String(row.email)}, saw ${created.length}`);
			const tags = (created[0].body as Record<string, unknown>).tags as Record<string, unknown> | undefined;
			ensure(
				tags?.department === row.department && tags?.managedBy === 'n8n-hr-sync',
				`sandbox: user ${String(row.email)} created with tags ${JSON.stringify(tags)}, expected its department and the scope tag`,
			);
		}
		// The account's other users are outside the scope: this run disabled or deleted nobody (the lane's
		// other workflows, run before on the same sandbox, create and delete users of their own).
		const startTime = (run.data.resultData.runData[PREVIEW_NODE]?.[0] as { startTime?: unknown } | undefined)?.startTime;
		ensure(typeof startTime === 'number', `${PREVIEW_NODE}: no startTime in the run data`);
		const removed = writes.filter((w) => w.at >= startTime && (w.kind === 'delete' || JSON.stringify(w.body ?? '').includes('/disabled')));
		ensure(removed.length === 0, `sandbox: the sync disabled or deleted users outside its scope: ${JSON.stringify(removed)}`);
	},
};

export default expectation;
