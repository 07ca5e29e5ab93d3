import { defineResource } from '../operation';
import * as exportTrack from './exportTrack.operation';
import * as getAll from './getAll.operation';
import * as getDailySummary from './getDailySummary.operation';
import * as getTrips from './getTrips.operation';
import * as submit from './submit.operation';

export const location = defineResource('location', 'Location', {
	getAll,
	submit,
	getTrips,
	getDailySummary,
	exportTrack,
}, 'getAll');
