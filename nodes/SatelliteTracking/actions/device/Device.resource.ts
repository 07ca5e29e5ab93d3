import { defineResource } from '../operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getLastLocation from './getLastLocation.operation';
import * as getLicenseUsage from './getLicenseUsage.operation';
import * as getNotificationCounters from './getNotificationCounters.operation';
import * as sendCommand from './sendCommand.operation';

export const device = defineResource('device', 'Device', {
	get,
	getAll,
	getLastLocation,
	getLicenseUsage,
	getNotificationCounters,
	sendCommand,
}, 'get');
