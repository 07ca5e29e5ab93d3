import { defineResource } from '../operation';
import * as getAll from './getAll.operation';

export const alert = defineResource('alert', 'Alert', {
	getAll,
}, 'getAll');
