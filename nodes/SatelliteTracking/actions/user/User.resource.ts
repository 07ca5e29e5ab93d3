import { defineResource } from '../operation';
import * as create from './create.operation';
import * as deleteUser from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getCountries from './getCountries.operation';
import * as getTimeZones from './getTimeZones.operation';
import * as replace from './replace.operation';
import * as sync from './sync.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const user = defineResource('user', 'User', {
	create,
	get,
	getAll,
	replace,
	update,
	delete: deleteUser,
	upsert,
	sync,
	getCountries,
	getTimeZones,
}, 'get');
