/**
 * The tracking API's wire format: every path, envelope key, payload key and field name the
 * service uses. The nodes, the credential and the sandbox server all read names from here,
 * so a correction to the contract (docs/api-contract.md) is an edit to this file alone.
 */

export const DEFAULT_BASE_URL = 'https://api.plaspy.com';

export const CREDENTIAL_TYPE = 'satelliteTrackingApi';

export const TOKEN_PATH = '/api/Auth/Token';

export interface TokenRequest {
	userName: string;
	apiKey: string;
}

export interface TokenAnswer extends Envelope {
	token?: string;
	expires?: string;
}

/** Fields beside the payload in every answer. */
export interface Envelope {
	success: boolean;
	error: string | null;
	apiUsage?: number;
	apiDailyUsage?: number;
}

export const ENVELOPE_KEYS = ['success', 'error', 'apiUsage', 'apiDailyUsage'] as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type PathParam = 'deviceId' | 'groupId' | 'userId';

/**
 * Where an answer carries its resource: under a key, flat beside the envelope (a single group or
 * user, which some deployments still wrap under `group`/`user`), or nowhere (delete).
 */
export type Payload =
	| { kind: 'keyed'; key: string; shape: PayloadShape }
	| { kind: 'flat'; wrapperKey: string }
	| { kind: 'none' };

/** What a keyed payload holds; `nullableObject` is a last location, null when none was ever sent. */
export type PayloadShape = 'list' | 'object' | 'nullableObject' | 'map' | 'text';

export interface Endpoint<Answer = unknown> {
	method: HttpMethod;
	/** Path with `{deviceId}`-style placeholders; the transport percent-encodes what fills them. */
	path: string;
	payload: Payload;
	/** A read: safe to send again after a lost connection or a server error. */
	read: boolean;
	/** Never set: carries the type of what the envelope holds, so callers need not name it. */
	readonly answer?: Answer;
}

/** What an endpoint answers once its envelope is stripped. */
export type AnswerOf<Name extends EndpointName> = (typeof ENDPOINTS)[Name] extends Endpoint<infer Answer> ? Answer : never;

const endpoint = <Answer>(spec: Endpoint): Endpoint<Answer> => spec as Endpoint<Answer>;

const keyed = (key: string, shape: PayloadShape): Payload => ({ kind: 'keyed', key, shape });
const flat = (wrapperKey: string): Payload => ({ kind: 'flat', wrapperKey });
const none: Payload = { kind: 'none' };

export const ENDPOINTS = {
	listDevices: endpoint<Device[]>({ method: 'GET', path: '/api/devices', payload: keyed('devices', 'list'), read: true }),
	getDevice: endpoint<Device>({ method: 'GET', path: '/api/devices/{deviceId}', payload: keyed('device', 'object'), read: true }),
	getLastLocation: endpoint<Location | null>({
		method: 'GET',
		path: '/api/devices/{deviceId}/lastLocation',
		payload: keyed('lastLocation', 'nullableObject'),
		read: true,
	}),
	// The vendor documents these two POSTs as date-range reads (see the contract's resolved
	// contradiction); a locations call that carries a `location` stores it, so it is not a read.
	getLocations: endpoint<Location[]>({
		method: 'POST',
		path: '/api/devices/{deviceId}/locations',
		payload: keyed('locations', 'list'),
		read: true,
	}),
	submitLocation: endpoint<Location[]>({
		method: 'POST',
		path: '/api/devices/{deviceId}/locations',
		payload: keyed('locations', 'list'),
		read: false,
	}),
	getAlerts: endpoint<Alert[]>({
		method: 'POST',
		path: '/api/devices/{deviceId}/alerts',
		payload: keyed('alerts', 'list'),
		read: true,
	}),
	sendCommand: endpoint<string>({
		method: 'POST',
		path: '/api/devices/{deviceId}/sendCommand',
		payload: keyed('result', 'text'),
		read: false,
	}),

	listGroups: endpoint<Group[]>({ method: 'GET', path: '/api/groups', payload: keyed('groups', 'list'), read: true }),
	createGroup: endpoint<Group>({ method: 'POST', path: '/api/groups', payload: flat('group'), read: false }),
	getGroup: endpoint<Group>({ method: 'GET', path: '/api/groups/{groupId}', payload: flat('group'), read: true }),
	replaceGroup: endpoint<Group>({ method: 'PUT', path: '/api/groups/{groupId}', payload: flat('group'), read: false }),
	updateGroup: endpoint<Group>({
		method: 'PATCH',
		path: '/api/groups/{groupId}',
		payload: flat('group'),
		read: false,
	}),
	deleteGroup: endpoint<undefined>({ method: 'DELETE', path: '/api/groups/{groupId}', payload: none, read: false }),

	listUsers: endpoint<User[]>({ method: 'GET', path: '/api/users', payload: keyed('users', 'list'), read: true }),
	createUser: endpoint<User>({ method: 'POST', path: '/api/users', payload: flat('user'), read: false }),
	listCountries: endpoint<Record<string, string>>({
		method: 'GET',
		path: '/api/users/countries',
		payload: keyed('countries', 'map'),
		read: true,
	}),
	listTimeZones: endpoint<Record<string, string>>({
		method: 'GET',
		path: '/api/users/timeZones',
		payload: keyed('timeZones', 'map'),
		read: true,
	}),
	getUser: endpoint<User>({ method: 'GET', path: '/api/users/{userId}', payload: flat('user'), read: true }),
	replaceUser: endpoint<User>({ method: 'PUT', path: '/api/users/{userId}', payload: flat('user'), read: false }),
	updateUser: endpoint<User>({ method: 'PATCH', path: '/api/users/{userId}', payload: flat('user'), read: false }),
	deleteUser: endpoint<undefined>({ method: 'DELETE', path: '/api/users/{userId}', payload: none, read: false }),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

// ---------------------------------------------------------------------------------------------
// Resources

export interface Device {
	id: string;
	name: string;
	description?: string | null;
	/** The device's phone number. */
	min?: string | null;
	tags?: Record<string, string>;
	/** A device whose `expires` has passed no longer uses a license. */
	expires?: string | null;
}

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
	/** Spelled this way by the vendor. */
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

/** Optional numeric fields of a location a user may submit. */
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

/** The states of the device's digital inputs and outputs, in order. */
export const LOCATION_BOOLEAN_LIST_FIELDS = ['inputs', 'outputs'] as const;

export interface Alert {
	dateTime: string;
	latitude: number;
	longitude: number;
	text: string;
	/** Channels the alert was sent through, e.g. "Email", "SMS". */
	notifications: string[];
	alerts: string[];
}

/**
 * The valid `alertName` values, with their meaning, as the alerts page lists them (55, in its order).
 * The service raises an alert only when it is configured for the device in the web app.
 */
export const ALERT_NAMES = {
	GPSOff: 'GPS is turned off.',
	GPSNoSignal: 'GPS has lost signal.',
	ForbiddenArea: 'Device entered a forbidden area (geofence).',
	AllowedArea: 'Device exited or entered an allowed area.',
	SOSButton: 'The panic/SOS button was pressed.',
	SpeedLimit: 'The device exceeded the speed limit.',
	NoMovementTime: 'Device has been inactive/stopped for too long.',
	Sensor1On: 'Sensor 1 was activated.',
	GPSUnplugged: 'The device was disconnected from its main power source.',
	Sensor1Off: 'Sensor 1 was deactivated.',
	TemperatureGreaterThan: 'Temperature exceeded the maximum limit.',
	TemperatureLowerThan: 'Temperature dropped below the minimum limit.',
	FuelJumpDown: 'Sudden drop in fuel level (possible theft).',
	FuelJumpUp: 'Sudden increase in fuel level (refueling).',
	FuelLessThan: 'Fuel level is critically low.',
	FutureDate: 'The device sent a date in the future.',
	PastDate: 'The device sent a date from the past.',
	Sensor2On: 'Sensor 2 was activated.',
	Sensor2Off: 'Sensor 2 was deactivated.',
	Sensor3On: 'Sensor 3 was activated.',
	Sensor3Off: 'Sensor 3 was deactivated.',
	Sensor4On: 'Sensor 4 was activated.',
	Sensor4Off: 'Sensor 4 was deactivated.',
	ExpiredDate: 'The data has expired.',
	Mileage: 'Mileage alert triggered.',
	Vibration: 'Vibration detected.',
	RPM: 'RPM limit exceeded.',
	CheckPoint: 'A checkpoint was reached.',
	CheckArea: 'A check area was crossed.',
	SpeedLower: 'Speed dropped below a set limit.',
	Offline: 'Device went offline.',
	LowBattery: "Device's internal battery is low.",
	BatteryVoltage: 'Main battery voltage is out of range.',
	SleepMode: 'Device entered sleep/power-saving mode.',
	Temperature2LessThan: 'Secondary temperature dropped below the minimum limit.',
	Temperature2GreaterThan: 'Secondary temperature exceeded the maximum limit.',
	Route: 'Route deviation detected.',
	Sensor1Time: 'Sensor 1 specific time threshold met.',
	Sensor2Time: 'Sensor 2 specific time threshold met.',
	Sensor3Time: 'Sensor 3 specific time threshold met.',
	Sensor4Time: 'Sensor 4 specific time threshold met.',
	SensorAccumulated1Time: 'Accumulated time on sensor 1 exceeded threshold.',
	SensorAccumulated2Time: 'Accumulated time on sensor 2 exceeded threshold.',
	SensorAccumulated3Time: 'Accumulated time on sensor 3 exceeded threshold.',
	SensorAccumulated4Time: 'Accumulated time on sensor 4 exceeded threshold.',
	FuelJumpDown2: 'Sudden drop in fuel level for secondary tank.',
	FuelJumpUp2: 'Sudden increase in fuel level for secondary tank.',
	FuelLessThan2: 'Fuel level is critically low for secondary tank.',
	AttributeEquals: 'Custom attribute equality condition met.',
	AttributeLessThan: 'Custom attribute less-than condition met.',
	AttributeGreaterThan: 'Custom attribute greater-than condition met.',
	HarshBraking: 'Harsh or sudden braking detected.',
	HarshAcceleration: 'Harsh or sudden acceleration detected.',
	AuthenticationFailed: 'Authentication of the device or driver failed.',
	IdleTime: 'Vehicle is idling for too long.',
} as const;

export type AlertName = keyof typeof ALERT_NAMES;

export const NOTIFICATION_CHANNEL = { email: 'Email', sms: 'SMS' } as const;

export interface DateRange {
	from: string;
	to: string;
}

export interface LocationsRequest extends DateRange {
	location?: Location;
}

export interface AlertsRequest extends DateRange {
	alertName?: string;
}

export const COMMAND_FORMATS = ['Text', 'Hex', 'Base64'] as const;
export type CommandFormat = (typeof COMMAND_FORMATS)[number];

export interface SendCommandRequest {
	command: string;
	format?: CommandFormat;
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

export const GROUP_REQUIRED_FIELDS = ['name'] as const;

/** The privileges the vendor's user examples carry. */
export const USER_PRIVILEGES = ['read', 'write', 'execute'] as const;

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
	/** Write-only: the service reads it back as null. */
	password?: string | null;
	creation?: string;
	modification?: string;
	lastLogin?: string | null;
}

export const USER_REQUIRED_FIELDS = ['name', 'email', 'country', 'timeZone'] as const;

export const USER_WRITE_ONLY_FIELDS = ['password'] as const;

export type UserWrite = Omit<User, 'id' | 'creation' | 'modification' | 'lastLogin'>;

/** What the service reads an optional user field back as once it is unset (null or absent). */
export const USER_UNSET_READS_AS: Readonly<Partial<Record<keyof UserWrite, unknown>>> = { disabled: false, adminDevices: 0 };

/** One operation of an RFC 6902 JSON Patch, as PATCH /api/groups|users/{id} expects. */
export type JsonPatchOperation =
	| { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
	| { op: 'remove'; path: string }
	| { op: 'move' | 'copy'; from: string; path: string };

/** The user PATCH page lists all six RFC 6902 operations. */
export const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;
