import { defineResource } from '../operation';
import * as addDevices from './addDevices.operation';
import * as create from './create.operation';
import * as deleteGroup from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as removeDevices from './removeDevices.operation';
import * as replace from './replace.operation';
import * as update from './update.operation';

export const group = defineResource('group', 'Group', {
	create,
	get,
	getAll,
	replace,
	update,
	delete: deleteGroup,
	addDevices,
	removeDevices,
}, 'get');
