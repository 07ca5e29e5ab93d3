import { devicesWith, devicesWithout, filterGroups, sameDevices, toDeviceIds } from '../../nodes/shared/groups';
import { KeyedLock } from '../../nodes/shared/keyedLock';
import { countryInOtherLanguage, countryList, emailKey, filterUsers, listedCountry, listedTimeZone, timeZoneList, withoutWriteOnlyFields } from '../../nodes/shared/users';
import { toTextList } from '../../nodes/shared/validation';
import type { Group, User } from '../../nodes/shared/wire';

describe('users', () => {
	const users = [
		{ id: 'u1', name: 'Ana Garcia', email: 'Ana@Example.com', disabled: false },
		{ id: 'u2', name: 'Ben Garcia', email: 'ben@example.com', disabled: true },
		{ id: 'u3', name: 'Carla Smith', email: 'carla@example.com' },
	] as User[];

	it('filters by e-mail (trimmed, any case), name part and disabled state', () => {
		expect(filterUsers(users, { email: ' ana@example.COM ' }).map((user) => user.id)).toEqual(['u1']);
		expect(filterUsers(users, { nameContains: 'garc' }).map((user) => user.id)).toEqual(['u1', 'u2']);
		expect(filterUsers(users, { disabled: false }).map((user) => user.id)).toEqual(['u1', 'u3']);
		expect(filterUsers(users, { disabled: true, nameContains: 'garcia' }).map((user) => user.id)).toEqual(['u2']);
		expect(filterUsers(users, {})).toHaveLength(3);
	});
	it('drops the password, whatever its value', () => {
		expect(withoutWriteOnlyFields({ ...users[0], password: 'secret' })).not.toHaveProperty('password');
		expect(withoutWriteOnlyFields({ ...users[0], password: null })).toEqual(users[0]);
	});
	it('turns the reference maps into entries', () => {
		expect(countryList({ US: 'United States', GB: 'United Kingdom' })).toEqual([
			{ code: 'US', name: 'United States' },
			{ code: 'GB', name: 'United Kingdom' },
		]);
		expect(timeZoneList({ 'Europe/London': 'Greenwich Mean Time' })).toEqual([{ id: 'Europe/London', name: 'Greenwich Mean Time' }]);
	});
});

describe('roster values against the service lists', () => {
	const countries = { US: 'United States', DE: 'Germany', ES: 'Spain' };
	it('keys an e-mail whatever its case, padding, Unicode form or invisible format characters', () => {
		expect(emailKey(' Jose\u0301\u200b@Example.com\ufeff ')).toBe(emailKey('josé@example.com'));
	});
	it('sends a listed code or name as written, another spelling as the listed code, and nothing else', () => {
		expect(listedCountry('Germany', countries)).toBe('Germany');
		expect(listedCountry('DE', countries)).toBe('DE');
		expect(listedCountry('germany', countries)).toBe('DE');
		expect(listedCountry('usa', countries)).toBe('US');
		expect(listedCountry('XX', countries)).toBeUndefined();
		expect(listedCountry('Deutschland', countries)).toBeUndefined();
	});
	it('suggests the code of a country named in another language', () => {
		expect(countryInOtherLanguage('Deutschland', countries)).toBe('DE');
		expect(countryInOtherLanguage('Espagne', countries)).toBe('ES');
		expect(countryInOtherLanguage('Atlantis', countries)).toBeUndefined();
	});
	it('takes a listed time zone in any case, as the list spells it', () => {
		const timeZones = { 'Europe/Berlin': 'Central European Standard Time', UTC: 'UTC' };
		expect(listedTimeZone('europe/BERLIN', timeZones)).toBe('Europe/Berlin');
		expect(listedTimeZone('Mars/Base', timeZones)).toBeUndefined();
	});
});

describe('groups', () => {
	it('filters by a part of the name', () => {
		const groups = [{ id: 'g1', name: 'North fleet' }, { id: 'g2', name: 'Vans' }] as Group[];
		expect(filterGroups(groups, { nameContains: 'FLEET' }).map((group) => group.id)).toEqual(['g1']);
		expect(filterGroups(groups, { nameContains: ' ' })).toHaveLength(2);
	});
	it('adds only devices not yet there, in order, and removes only those present', () => {
		expect(devicesWith(['a', 'b'], ['b', 'c', 'c'])).toEqual(['a', 'b', 'c']);
		expect(devicesWithout(['a', 'b', 'c'], ['b', 'x'])).toEqual(['a', 'c']);
		expect(sameDevices(devicesWith(['a'], ['a']), ['a'])).toBe(true);
		expect(sameDevices(devicesWithout(['a'], ['x']), ['a'])).toBe(true);
		expect(sameDevices(['a', 'b'], ['b', 'a'])).toBe(false);
	});
	it('reads device ids from comma-separated text or an array', () => {
		expect(toDeviceIds(' device001, device002 ,, ')).toEqual({ ok: true, value: ['device001', 'device002'] });
		expect(toDeviceIds(['a/b', 7])).toEqual({ ok: true, value: ['a/b', '7'] });
		expect(toDeviceIds('a, ..')).toMatchObject({ ok: false, problem: 'holds an invalid device id ".."' });
		expect(toDeviceIds(42)).toMatchObject({ ok: false });
	});
	it('reads text lists, refusing entries that are not texts', () => {
		expect(toTextList('ViewDevices,  SendCommands')).toEqual({ ok: true, value: ['ViewDevices', 'SendCommands'] });
		expect(toTextList(['a', null, ' '])).toEqual({ ok: true, value: ['a'] });
		expect(toTextList([{ a: 1 }])).toMatchObject({ ok: false, problem: 'must hold only texts (got {"a":1})' });
	});
});

describe('keyed lock', () => {
	const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

	it('runs tasks of one key one at a time and tasks of other keys alongside', async () => {
		const lock = new KeyedLock();
		const events: string[] = [];
		const task = (name: string) => async () => {
			events.push(`${name} start`);
			await tick();
			events.push(`${name} end`);
			return name;
		};
		const results = await Promise.all([lock.run('g1', task('a')), lock.run('g1', task('b')), lock.run('g2', task('c'))]);
		expect(results).toEqual(['a', 'b', 'c']);
		expect(events.indexOf('b start')).toBeGreaterThan(events.indexOf('a end'));
		expect(events.indexOf('c start')).toBeLessThan(events.indexOf('a end'));
	});
	it('goes on with the next task after one fails', async () => {
		const lock = new KeyedLock();
		const failing = lock.run('g', async () => {
			throw new Error('boom');
		});
		const next = lock.run('g', async () => 'ok');
		await expect(failing).rejects.toThrow('boom');
		await expect(next).resolves.toBe('ok');
	});
});
