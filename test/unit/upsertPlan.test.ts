import { planUpserts, type UpsertRequest } from '../../nodes/shared/upsertPlan';
import type { User, UserWrite } from '../../nodes/shared/wire';

const existing: User[] = [
	{ id: 'usr-1', name: 'Ana Garcia', email: 'ana@example.com', country: 'ES', timeZone: 'Europe/Madrid', description: 'ops', password: null },
	{ id: 'usr-2', name: 'Ben Smith', email: 'Ben@Example.com', country: 'GB', timeZone: 'Europe/London', tags: { team: 'a' } },
];

const write = (fields: Partial<UserWrite> & Pick<UserWrite, 'email'>): UserWrite => ({
	name: 'Someone',
	country: 'US',
	timeZone: 'America/Chicago',
	...fields,
});

const request = (itemIndex: number, user: UserWrite): UpsertRequest => ({ itemIndex, user });

describe('planning create-or-update by e-mail', () => {
	it('creates users whose e-mail is unknown, without the unset fields', () => {
		const plan = planUpserts(existing, [request(0, write({ email: 'new@example.com', description: null, password: 'pw' }))]);
		expect(plan.get(0)).toEqual({
			kind: 'create',
			user: { name: 'Someone', email: 'new@example.com', country: 'US', timeZone: 'America/Chicago', password: 'pw' },
		});
	});

	it('matches e-mails trimmed and case-insensitively, and leaves equal users alone', () => {
		const plan = planUpserts(existing, [
			request(0, { name: 'Ben Smith', email: '  ben@EXAMPLE.com ', country: 'GB', timeZone: 'Europe/London' }),
		]);
		expect(plan.get(0)).toEqual({ kind: 'unchanged', user: existing[1] });
	});

	it('patches only the fields that differ and never the e-mail or the password', () => {
		const plan = planUpserts(existing, [
			request(3, { name: 'Ana Garcia', email: 'ANA@example.com', country: 'PE', timeZone: 'Europe/Madrid', description: null, password: 'new' }),
		]);
		expect(plan.get(3)).toEqual({
			kind: 'update',
			userId: 'usr-1',
			patch: [
				{ op: 'replace', path: '/country', value: 'PE' },
				{ op: 'remove', path: '/description' },
			],
		});
	});

	it('lets the later of two items with one e-mail win and names it in the earlier one', () => {
		const plan = planUpserts(existing, [
			request(0, write({ email: 'dup@example.com', name: 'First' })),
			request(1, write({ email: 'ana@example.com', name: 'Ana Garcia', country: 'ES', timeZone: 'Europe/Madrid' })),
			request(2, write({ email: 'DUP@example.com ', name: 'Second' })),
			request(5, write({ email: 'dup@example.com', name: 'Third' })),
		]);
		expect(plan.get(0)).toEqual({ kind: 'superseded', byItemIndex: 5, user: null });
		expect(plan.get(2)).toEqual({ kind: 'superseded', byItemIndex: 5, user: null });
		expect(plan.get(5)).toMatchObject({ kind: 'create', user: { name: 'Third' } });
		expect(plan.get(1)).toMatchObject({ kind: 'unchanged' });
		const creates = [...plan.values()].filter((step) => step.kind === 'create');
		expect(creates).toHaveLength(1);
	});

	it('reports the listed user on a superseded item of an existing e-mail', () => {
		const plan = planUpserts(existing, [
			request(0, write({ email: 'ben@example.com', name: 'Old' })),
			request(1, write({ email: 'ben@example.com', name: 'New' })),
		]);
		expect(plan.get(0)).toEqual({ kind: 'superseded', byItemIndex: 1, user: existing[1] });
		expect(plan.get(1)).toMatchObject({ kind: 'update', userId: 'usr-2' });
	});

	it('matches the first listed user when the service holds an e-mail twice', () => {
		const twice = [...existing, { ...existing[0], id: 'usr-9', name: 'Other' }];
		const plan = planUpserts(twice, [request(0, write({ email: 'ana@example.com', name: 'Changed' }))]);
		expect(plan.get(0)).toMatchObject({ kind: 'update', userId: 'usr-1' });
	});

	it('plans only the items it was given', () => {
		const plan = planUpserts(existing, [request(4, write({ email: 'x@example.com' }))]);
		expect([...plan.keys()]).toEqual([4]);
	});
});

describe('matching and comparing as the vendor writes values (issues 12, 13.7, 13.8)', () => {
	const COUNTRIES = { US: 'United States', CO: 'Colombia', GB: 'United Kingdom' };

	it('leaves a listed user without an e-mail unmatched, without failing', () => {
		const listed = [{ ...existing[0], email: null } as unknown as User, existing[1]];
		const plan = planUpserts(listed, [request(0, write({ email: 'ana@example.com', name: 'Ana Garcia' }))]);
		expect(plan.get(0)).toMatchObject({ kind: 'create' });
	});

	it('matches an e-mail whatever its Unicode normalisation, on both sides', () => {
		const decomposed = 'jose\u0301@example.com';
		const composed = 'jos\u00e9@example.com';
		const listed = [{ ...existing[0], email: decomposed }];
		const plan = planUpserts(listed, [request(0, { ...write({ email: ` ${composed.toUpperCase()} ` }), name: 'Ana Garcia', country: 'ES', timeZone: 'Europe/Madrid', description: 'ops' })]);
		expect(plan.get(0)).toEqual({ kind: 'unchanged', user: listed[0] });
		const twoItems = planUpserts([], [request(0, write({ email: decomposed })), request(1, write({ email: composed }))]);
		expect(twoItems.get(0)).toEqual({ kind: 'superseded', byItemIndex: 1, user: null });
	});

	it.each([
		['USA', 'US'],
		['USA', 'United States'],
		['United States', 'us'],
		['Colombia', 'CO'],
		['COL', 'colombia'],
	])('treats the listed country %s and the given %s as one', (listedCountry, given) => {
		const listed = [{ ...existing[1], country: listedCountry }];
		const plan = planUpserts(listed, [request(0, { name: 'Ben Smith', email: 'ben@example.com', country: given, timeZone: 'Europe/London' })], COUNTRIES);
		expect(plan.get(0)).toEqual({ kind: 'unchanged', user: listed[0] });
	});

	it('still patches a country that differs', () => {
		const listed = [{ ...existing[1], country: 'USA' }];
		const plan = planUpserts(listed, [request(0, { name: 'Ben Smith', email: 'ben@example.com', country: 'Colombia', timeZone: 'Europe/London' })], COUNTRIES);
		expect(plan.get(0)).toEqual({ kind: 'update', userId: 'usr-2', patch: [{ op: 'replace', path: '/country', value: 'Colombia' }] });
	});
});
