import { defineResource } from '../operation';
import * as getAll from './getAll.operation';
import * as submit from './submit.operation';

export const location = defineResource('location', 'Location', {
	getAll,
	submit,
}, 'getAll');
