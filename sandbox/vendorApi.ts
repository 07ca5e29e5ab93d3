/**
 * The API as the vendor documents it (plaspy-dev/docs, REST pages, and the example bodies copied in
 * test/contract/vendor/), written out here on purpose instead of read from nodes/shared/wire.ts:
 * the sandbox judges the nodes, so a wrong path, method or key in the nodes' table must make the
 * tests fail, not be copied by the judge. Nothing in sandbox/ imports from nodes/
 * (test/contract/independence.test.ts checks it).
 */

export const TOKEN_PATH = '/api/Auth/Token';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type PathParam = 'deviceId' | 'groupId' | 'userId';

/**
 * Where an answer carries its resource: under a key (lists, devices, a last location, a command's
 * result, the reference maps), or flat beside the envelope (a single group or user).
 */
export type PayloadPlace = { key: string } | 'flat' | 'none';

export interface VendorRoute {
	method: HttpMethod;
	path: string;
	payload: PayloadPlace;
}

/** One entry per documented method and path, as the docs' headings name them. */
export const VENDOR_ROUTES = {
	listDevices: { method: 'GET', path: '/api/devices', payload: { key: 'devices' } },
	getDevice: { method: 'GET', path: '/api/devices/{deviceId}', payload: { key: 'device' } },
	getLastLocation: { method: 'GET', path: '/api/devices/{deviceId}/lastLocation', payload: { key: 'lastLocation' } },
	locations: { method: 'POST', path: '/api/devices/{deviceId}/locations', payload: { key: 'locations' } },
	alerts: { method: 'POST', path: '/api/devices/{deviceId}/alerts', payload: { key: 'alerts' } },
	sendCommand: { method: 'POST', path: '/api/devices/{deviceId}/sendCommand', payload: { key: 'result' } },
	listGroups: { method: 'GET', path: '/api/groups', payload: { key: 'groups' } },
	createGroup: { method: 'POST', path: '/api/groups', payload: 'flat' },
	getGroup: { method: 'GET', path: '/api/groups/{groupId}', payload: 'flat' },
	replaceGroup: { method: 'PUT', path: '/api/groups/{groupId}', payload: 'flat' },
	updateGroup: { method: 'PATCH', path: '/api/groups/{groupId}', payload: 'flat' },
	deleteGroup: { method: 'DELETE', path: '/api/groups/{groupId}', payload: 'none' },
	listUsers: { method: 'GET', path: '/api/users', payload: { key: 'users' } },
	createUser: { method: 'POST', path: '/api/users', payload: 'flat' },
	listCountries: { method: 'GET', path: '/api/users/countries', payload: { key: 'countries' } },
	listTimeZones: { method: 'GET', path: '/api/users/timeZones', payload: { key: 'timeZones' } },
	getUser: { method: 'GET', path: '/api/users/{userId}', payload: 'flat' },
	replaceUser: { method: 'PUT', path: '/api/users/{userId}', payload: 'flat' },
	updateUser: { method: 'PATCH', path: '/api/users/{userId}', payload: 'flat' },
	deleteUser: { method: 'DELETE', path: '/api/users/{userId}', payload: 'none' },
} as const satisfies Record<string, VendorRoute>;

export type VendorRouteName = keyof typeof VENDOR_ROUTES;

export interface TokenRequest {
	userName: string;
	apiKey: string;
}

export interface Envelope {
	success: boolean;
	error: string | null;
	apiUsage?: number;
	apiDailyUsage?: number;
}

export const ENVELOPE_KEYS = ['success', 'error', 'apiUsage', 'apiDailyUsage'] as const;

export interface TokenAnswer extends Envelope {
	token?: string;
	expires?: string;
}

export interface Device {
	id: string;
	name: string;
	description?: string | null;
	min?: string | null;
	tags?: Record<string, string>;
	expires?: string | null;
}

/** The location object of the lastLocation and locations pages (`milleage` is the vendor's spelling). */
export interface Location {
	dateTime: string;
	latitude: number;
	longitude: number;
	speed?: number;
	course?: number;
	battery?: number;
	fuel?: number;
	fuel2?: number;
	temperature?: number;
	temperature2?: number;
	sensorTime1?: number;
	sensorTime2?: number;
	sensorTime3?: number;
	sensorTime4?: number;
	inactiveSeconds?: number;
	rpm?: number;
	milleage?: number;
	warningTexts?: string[];
	alertTexts?: string[];
	alerts?: string[];
	warnings?: string[];
	hasCriticalAlert?: boolean;
	attributes?: Record<string, string>;
	accessoriesAttributes?: Array<Record<string, unknown>>;
	inputs?: boolean[];
	outputs?: boolean[];
}

export const LOCATION_NUMBER_FIELDS = [
	'speed',
	'course',
	'battery',
	'fuel',
	'fuel2',
	'temperature',
	'temperature2',
	'sensorTime1',
	'sensorTime2',
	'sensorTime3',
	'sensorTime4',
	'inactiveSeconds',
	'rpm',
	'milleage',
] as const;

export const LOCATION_TEXT_LIST_FIELDS = ['warningTexts', 'alertTexts', 'alerts', 'warnings'] as const;

export interface Alert {
	dateTime: string;
	latitude: number;
	longitude: number;
	text: string;
	notifications: string[];
	alerts: string[];
}

/** The channels the alerts example lists under `notifications`. */
export const NOTIFICATION_CHANNELS = { email: 'Email', sms: 'SMS' } as const;

export interface DateRange {
	from: string;
	to: string;
}

export interface AlertsRequest extends DateRange {
	alertName?: string;
}

/** The sendCommand page's `format` values. */
export const COMMAND_FORMATS = ['Text', 'Hex', 'Base64'] as const;

export interface SendCommandRequest {
	command: string;
	format?: (typeof COMMAND_FORMATS)[number];
	sms?: boolean;
}

export interface Group {
	id: string;
	name: string;
	description?: string | null;
	devices?: string[];
	creation?: string;
	lastModified?: string;
}

export type GroupWrite = Pick<Group, 'name' | 'description' | 'devices'>;

export interface User {
	id: string;
	name: string;
	email: string;
	country: string;
	timeZone: string;
	description?: string | null;
	message?: string | null;
	disabled?: boolean;
	disabledMessage?: string | null;
	tags?: Record<string, string>;
	privileges?: string[];
	group?: string | null;
	deviceId?: string | null;
	adminDevices?: number;
	from?: string | null;
	expires?: string | null;
	password?: string | null;
	creation?: string;
	modification?: string;
	lastLogin?: string | null;
}

export type UserWrite = Omit<User, 'id' | 'creation' | 'modification' | 'lastLogin'>;

/** Required on POST and PUT /api/users, as the users pages' tables mark them. */
export const USER_REQUIRED_FIELDS = ['name', 'email', 'country', 'timeZone'] as const;

/** The user PATCH page lists all six RFC 6902 operations. */
export const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

export type JsonPatchOperation =
	| { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
	| { op: 'remove'; path: string }
	| { op: 'move' | 'copy'; from: string; path: string };

/** The alerts page's "Available Alert Names" table, in its order (55 names). */
export const VENDOR_ALERT_NAMES = [
	'GPSOff',
	'GPSNoSignal',
	'ForbiddenArea',
	'AllowedArea',
	'SOSButton',
	'SpeedLimit',
	'NoMovementTime',
	'Sensor1On',
	'GPSUnplugged',
	'Sensor1Off',
	'TemperatureGreaterThan',
	'TemperatureLowerThan',
	'FuelJumpDown',
	'FuelJumpUp',
	'FuelLessThan',
	'FutureDate',
	'PastDate',
	'Sensor2On',
	'Sensor2Off',
	'Sensor3On',
	'Sensor3Off',
	'Sensor4On',
	'Sensor4Off',
	'ExpiredDate',
	'Mileage',
	'Vibration',
	'RPM',
	'CheckPoint',
	'CheckArea',
	'SpeedLower',
	'Offline',
	'LowBattery',
	'BatteryVoltage',
	'SleepMode',
	'Temperature2LessThan',
	'Temperature2GreaterThan',
	'Route',
	'Sensor1Time',
	'Sensor2Time',
	'Sensor3Time',
	'Sensor4Time',
	'SensorAccumulated1Time',
	'SensorAccumulated2Time',
	'SensorAccumulated3Time',
	'SensorAccumulated4Time',
	'FuelJumpDown2',
	'FuelJumpUp2',
	'FuelLessThan2',
	'AttributeEquals',
	'AttributeLessThan',
	'AttributeGreaterThan',
	'HarshBraking',
	'HarshAcceleration',
	'AuthenticationFailed',
	'IdleTime',
] as const;
