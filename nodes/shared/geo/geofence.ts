/**
 * Geofences defined in the trigger: circles (centre and radius) and polygons (lat/lon points or
 * GeoJSON). Each has an id derived from its definition, so state kept per geofence follows an edit
 * as a new geofence rather than carrying an old inside/outside over to a different shape. Pure.
 */
import { shortHash } from '../hash';
import { preview, toLatitude, toLongitude, toNonEmptyText, type Check } from '../validation';
import { distanceMeters, type GeoPoint } from './distance';
import { geoJsonPolygons, type PolygonRings } from './geoJson';
import { polygonContains, preparePolygon, type PreparedPolygon } from './polygon';

interface GeofenceBase {
	id: string;
	name: string;
}

export interface CircleGeofence extends GeofenceBase {
	kind: 'circle';
	center: GeoPoint;
	radiusMeters: number;
}

export interface PolygonGeofence extends GeofenceBase {
	kind: 'polygon';
	polygons: PreparedPolygon[];
}

export type Geofence = CircleGeofence | PolygonGeofence;

export function geofenceContains(geofence: Geofence, point: GeoPoint): boolean {
	if (geofence.kind === 'circle') return distanceMeters(geofence.center, point) <= geofence.radiusMeters;
	return geofence.polygons.some((polygon) => polygonContains(polygon, point));
}

const fail = <T>(problem: string): Check<T> => ({ ok: false, problem });

export function circleGeofence(name: unknown, latitude: unknown, longitude: unknown, radiusMeters: unknown): Check<Geofence> {
	const label = toNonEmptyText(name);
	if (!label.ok) return fail(`name ${label.problem}`);
	const lat = toLatitude(latitude);
	if (!lat.ok) return fail(`"${label.value}": latitude ${lat.problem}`);
	const lon = toLongitude(longitude);
	if (!lon.ok) return fail(`"${label.value}": longitude ${lon.problem}`);
	const radius = Number(radiusMeters);
	if (!Number.isFinite(radius) || radius <= 0) return fail(`"${label.value}": radius must be more than 0 metres (got ${preview(radiusMeters)})`);
	const center = { latitude: lat.value, longitude: lon.value };
	const id = shortHash(JSON.stringify(['circle', label.value, center, radius]));
	return { ok: true, value: { kind: 'circle', id, name: label.value, center, radiusMeters: radius } };
}

/** `points`: one "latitude, longitude" pair per line (or separated by ";"), as map tools copy them. */
export function pointsGeofence(name: unknown, points: unknown): Check<Geofence> {
	const label = toNonEmptyText(name);
	if (!label.ok) return fail(`name ${label.problem}`);
	const ring = parsePoints(points);
	if (!ring.ok) return fail(`"${label.value}": points ${ring.problem}`);
	return polygonGeofence(label.value, [[ring.value]]);
}

export function geoJsonGeofence(name: unknown, geoJson: unknown): Check<Geofence> {
	const label = toNonEmptyText(name);
	if (!label.ok) return fail(`name ${label.problem}`);
	const polygons = geoJsonPolygons(geoJson);
	if (!polygons.ok) return fail(`"${label.value}": GeoJSON ${polygons.problem}`);
	return polygonGeofence(label.value, polygons.value);
}

function polygonGeofence(name: string, polygons: PolygonRings[]): Check<Geofence> {
	const tooSmall = polygons.flat().find((ring) => distinctPoints(ring) < 3);
	if (tooSmall) return fail(`"${name}": a ring needs at least three distinct points (got ${tooSmall.length})`);
	const id = shortHash(JSON.stringify(['polygon', name, polygons]));
	return { ok: true, value: { kind: 'polygon', id, name, polygons: polygons.map(preparePolygon) } };
}

function distinctPoints(ring: GeoPoint[]): number {
	return new Set(ring.map((point) => `${point.latitude},${point.longitude}`)).size;
}

function parsePoints(value: unknown): Check<GeoPoint[]> {
	if (typeof value !== 'string' || value.trim() === '') return fail('are empty');
	const pairs = value
		.split(/[\n;]+/)
		.map((line) => line.trim())
		.filter((line) => line !== '');
	const ring: GeoPoint[] = [];
	for (const pair of pairs) {
		const parts = pair.split(/[\s,]+/).filter((part) => part !== '');
		if (parts.length !== 2) return fail(`must be "latitude, longitude" pairs (got ${preview(pair)})`);
		const lat = toLatitude(parts[0]);
		if (!lat.ok) return fail(`${preview(pair)}: latitude ${lat.problem}`);
		const lon = toLongitude(parts[1]);
		if (!lon.ok) return fail(`${preview(pair)}: longitude ${lon.problem}`);
		ring.push({ latitude: lat.value, longitude: lon.value });
	}
	return { ok: true, value: ring };
}
