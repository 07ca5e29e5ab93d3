import type { Alert, Location } from './wire';

/**
 * The short, named view of a fix or an alert that "Simplify" outputs: what a person (or an AI
 * agent, which pays per token) reads first, instead of the 27 raw columns of a fix.
 */
export interface SimpleFix {
	deviceId: string;
	deviceName: string;
	dateTime: string;
	latitude: number;
	longitude: number;
	/** km/h as the device reports it; null when the device does not report it. */
	speed: number | null;
	/** Percent as the device reports it; null when the device does not report it. */
	battery: number | null;
	mapLink: string;
	alerts: string[];
}

export interface NeverReported {
	deviceId: string;
	deviceName: string;
	neverReported: true;
}

export interface SimpleAlert {
	deviceId: string;
	deviceName: string;
	dateTime: string;
	text: string;
	alerts: string[];
	notifications: string[];
	latitude: number;
	longitude: number;
	mapLink: string;
}

/**
 * A map pin anyone can open without an account or an API key; OpenStreetMap takes the point as
 * given, so no address lookup (and no third party learning where the fleet is) is involved.
 */
export function mapLink(latitude: number, longitude: number): string {
	return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}

/** A fix's alerts in words: the readable texts when the device sends them, else the alert names. */
function alertsOf(fix: Pick<Location, 'alertTexts' | 'alerts'>): string[] {
	return fix.alertTexts && fix.alertTexts.length > 0 ? [...fix.alertTexts] : [...(fix.alerts ?? [])];
}

/** A fix as read, or only its time and position (the trigger's newest fix kept in its state). */
export function simplifyFix(deviceId: string, deviceName: string, fix: Pick<Location, 'dateTime' | 'latitude' | 'longitude'> & Partial<Location>): SimpleFix {
	return {
		deviceId,
		deviceName,
		dateTime: fix.dateTime,
		latitude: fix.latitude,
		longitude: fix.longitude,
		speed: fix.speed ?? null,
		battery: fix.battery ?? null,
		mapLink: mapLink(fix.latitude, fix.longitude),
		alerts: alertsOf(fix),
	};
}

export function simplifyAlert(deviceId: string, deviceName: string, alert: Alert): SimpleAlert {
	return {
		deviceId,
		deviceName,
		dateTime: alert.dateTime,
		text: alert.text,
		alerts: [...(alert.alerts ?? [])],
		notifications: [...(alert.notifications ?? [])],
		latitude: alert.latitude,
		longitude: alert.longitude,
		mapLink: mapLink(alert.latitude, alert.longitude),
	};
}
