/**
 * The API's endpoints, one handler each. A handler returns the payload (keyed or flat, as
 * VENDOR_ROUTES says); the caller wraps it in the envelope. Failures are thrown as ApiError.
 */
import { ApiError, badRequest } from './apiError';
import { JsonPatchError, applyJsonPatch } from './jsonPatch';
import type { Recorder } from './recorder';
import { countries, timeZones } from './reference';
import type { SandboxStore } from './store';
import {
	checkAlertName,
	checkCommand,
	checkGroup,
	checkLocation,
	checkRange,
	checkUser,
	isRecord,
	requireBody,
} from './validation';
import { VENDOR_ROUTES, type Group, type PathParam, type User, type UserWrite, type VendorRouteName } from './vendorApi';

export interface HandlerContext {
	params: Partial<Record<PathParam, string>>;
	body: unknown;
	store: SandboxStore;
	recorder: Recorder;
	now: () => number;
}

export type PayloadFields = Record<string, unknown>;
type Handler = (context: HandlerContext) => PayloadFields;

const COMMAND_QUEUED = 'Command queued.';

function keyed(name: VendorRouteName, value: unknown): PayloadFields {
	const payload: (typeof VENDOR_ROUTES)[VendorRouteName]['payload'] = VENDOR_ROUTES[name].payload;
	if (typeof payload !== 'object') throw new Error(`${name} has no payload key.`);
	return { [payload.key]: value };
}

const notFound = (what: 'Device' | 'Group' | 'User') => new ApiError(404, `${what} not found.`);

function deviceIdOf({ params, store }: HandlerContext): string {
	const id = params.deviceId!;
	if (!store.hasDevice(id)) throw notFound('Device');
	return id;
}

// --- devices ------------------------------------------------------------------------------------

const listDevices: Handler = ({ store }) => keyed('listDevices', store.listDevices());

const getDevice: Handler = (context) => keyed('getDevice', context.store.getDevice(deviceIdOf(context)));

const getLastLocation: Handler = (context) =>
	keyed('getLastLocation', context.store.lastLocation(deviceIdOf(context)) ?? null);

/** A range read that first stores the `location` it carries, if any (see the contract). */
const locations: Handler = (context) => {
	const deviceId = deviceIdOf(context);
	const body = requireBody(context.body, '{ "from": ISO date-time, "to": ISO date-time, "location"?: Location }');
	const range = checkRange(body);
	if (body.location !== undefined && body.location !== null) {
		const stored = context.store.addFix(deviceId, checkLocation(body.location));
		context.recorder.write({ kind: 'submitLocation', resource: 'location', id: deviceId, body: context.body, stored });
	}
	return keyed('locations', context.store.locationsBetween(deviceId, range.from, range.to));
};

/**
 * `alertName` names an alert exactly (the alerts page lists the valid names); the vendor's own
 * example asks for "Speeding Alert", an alert's `text`, so the text counts as a name too.
 */
const getAlerts: Handler = (context) => {
	const deviceId = deviceIdOf(context);
	const body = requireBody(context.body, '{ "from": ISO date-time, "to": ISO date-time, "alertName"?: string }');
	const range = checkRange(body);
	const name = checkAlertName(body);
	const alerts = context.store.alertsBetween(deviceId, range.from, range.to) ?? [];
	const named = name ? alerts.filter((alert) => alert.text === name || alert.alerts.includes(name)) : alerts;
	return keyed('alerts', named);
};

const sendCommand: Handler = (context) => {
	const deviceId = deviceIdOf(context);
	const command = checkCommand(context.body);
	const sent = {
		deviceId,
		command: command.command,
		format: command.format ?? null,
		sms: command.sms ?? null,
		at: new Date(context.now()).toISOString(),
	};
	context.store.recordCommand(sent);
	context.recorder.write({ kind: 'sendCommand', resource: 'command', id: deviceId, body: context.body, stored: sent });
	return keyed('sendCommand', COMMAND_QUEUED);
};

// --- groups -------------------------------------------------------------------------------------

function checkGroupDevices(store: SandboxStore, devices: string[] | undefined): void {
	const unknown = (devices ?? []).filter((id) => !store.hasDevice(id));
	if (unknown.length > 0) throw badRequest(`Unknown device id(s) in devices: ${unknown.join(', ')}.`);
}

function existingGroup({ params, store }: HandlerContext): Group {
	const group = store.getGroup(params.groupId!);
	if (!group) throw notFound('Group');
	return group;
}

const listGroups: Handler = ({ store }) => keyed('listGroups', store.listGroups());

const createGroup: Handler = ({ body, store, recorder }) => {
	const write = checkGroup(body);
	checkGroupDevices(store, write.devices);
	const group = store.createGroup(write);
	recorder.write({ kind: 'create', resource: 'group', id: group.id, body, stored: group });
	return { ...group };
};

const getGroup: Handler = (context) => ({ ...existingGroup(context) });

const replaceGroup: Handler = (context) => {
	const { id } = existingGroup(context);
	const write = checkGroup(context.body);
	checkIdUnchanged(context.body, id);
	checkGroupDevices(context.store, write.devices);
	return storeGroup(context, id, write, 'put');
};

const updateGroup: Handler = (context) => {
	const current = existingGroup(context);
	const patched = patch(current, context.body);
	checkIdUnchanged(patched, current.id);
	const write = checkGroup(patched);
	checkGroupDevices(context.store, write.devices);
	return storeGroup(context, current.id, write, 'patch');
};

function storeGroup(context: HandlerContext, id: string, write: Parameters<SandboxStore['replaceGroup']>[1], kind: 'put' | 'patch') {
	const group = context.store.replaceGroup(id, write)!;
	context.recorder.write({ kind, resource: 'group', id, body: context.body, stored: group });
	return { ...group };
}

const deleteGroup: Handler = (context) => {
	const { id } = existingGroup(context);
	context.store.deleteGroup(id);
	context.recorder.write({ kind: 'delete', resource: 'group', id, body: context.body });
	return {};
};

// --- users --------------------------------------------------------------------------------------

function existingUser({ params, store }: HandlerContext): User {
	const user = store.getUser(params.userId!);
	if (!user) throw notFound('User');
	return user;
}

function checkEmailFree(store: SandboxStore, email: string, ownId?: string): void {
	const holder = store.userIdWithEmail(email);
	if (holder !== undefined && holder !== ownId) throw new ApiError(409, `A user with the e-mail ${email} already exists.`);
}

const listUsers: Handler = ({ store }) => keyed('listUsers', store.listUsers());

const createUser: Handler = ({ body, store, recorder }) => {
	const write = checkUser(body);
	checkEmailFree(store, write.email);
	const user = store.createUser(write);
	recorder.write({ kind: 'create', resource: 'user', id: user.id, body, stored: user });
	return { ...user };
};

const getUser: Handler = (context) => ({ ...existingUser(context) });

const replaceUser: Handler = (context) => {
	const { id } = existingUser(context);
	const write = checkUser(context.body);
	checkIdUnchanged(context.body, id);
	return storeUser(context, id, write, 'put');
};

/** The public view is patched, so its `password: null` stays "unchanged" unless the patch sets one. */
const updateUser: Handler = (context) => {
	const current = existingUser(context);
	const patched = patch(current, context.body);
	checkIdUnchanged(patched, current.id);
	return storeUser(context, current.id, checkUser(patched), 'patch');
};

function storeUser(context: HandlerContext, id: string, write: UserWrite, kind: 'put' | 'patch') {
	checkEmailFree(context.store, write.email, id);
	const user = context.store.replaceUser(id, write)!;
	context.recorder.write({ kind, resource: 'user', id, body: context.body, stored: user });
	return { ...user };
}

const deleteUser: Handler = (context) => {
	const { id } = existingUser(context);
	context.store.deleteUser(id);
	context.recorder.write({ kind: 'delete', resource: 'user', id, body: context.body });
	return {};
};

const listCountries: Handler = () => keyed('listCountries', countries());

const listTimeZones: Handler = () => keyed('listTimeZones', timeZones());

// --- shared -------------------------------------------------------------------------------------

function patch<T>(resource: T, operations: unknown): unknown {
	try {
		return applyJsonPatch(resource, operations);
	} catch (error) {
		if (error instanceof JsonPatchError) throw badRequest(error.message);
		throw error;
	}
}

function checkIdUnchanged(resource: unknown, id: string): void {
	if (isRecord(resource) && resource.id !== undefined && resource.id !== id) {
		throw badRequest(`The id cannot be changed (the path names ${id}).`);
	}
}

export const HANDLERS: Record<VendorRouteName, Handler> = {
	listDevices,
	getDevice,
	getLastLocation,
	locations,
	alerts: getAlerts,
	sendCommand,
	listGroups,
	createGroup,
	getGroup,
	replaceGroup,
	updateGroup,
	deleteGroup,
	listUsers,
	createUser,
	listCountries,
	listTimeZones,
	getUser,
	replaceUser,
	updateUser,
	deleteUser,
};
