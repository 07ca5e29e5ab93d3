/**
 * Reads the polygons of a GeoJSON value (RFC 7946): a Polygon or MultiPolygon geometry, or a Feature
 * holding one, as an object or JSON text. Positions are [longitude, latitude]. Pure.
 */
import { isRecord, preview, type Check } from '../validation';
import type { GeoPoint } from './distance';

/** Each polygon: its outer ring, then its holes. */
export type PolygonRings = GeoPoint[][];

export function geoJsonPolygons(value: unknown): Check<PolygonRings[]> {
	let json = value;
	if (typeof value === 'string') {
		try {
			json = JSON.parse(value);
		} catch {
			return { ok: false, problem: `is not valid JSON (got ${preview(value)})` };
		}
	}
	if (isRecord(json) && json.type === 'Feature') json = json.geometry;
	if (!isRecord(json)) return { ok: false, problem: `must be a GeoJSON Polygon (got ${preview(value)})` };
	try {
		if (json.type === 'Polygon') return { ok: true, value: [polygon(json.coordinates)] };
		if (json.type === 'MultiPolygon' && Array.isArray(json.coordinates) && json.coordinates.length > 0) {
			return { ok: true, value: json.coordinates.map(polygon) };
		}
	} catch (error) {
		return { ok: false, problem: (error as Error).message };
	}
	return { ok: false, problem: `must be a GeoJSON Polygon or MultiPolygon (got type ${preview(json.type)})` };
}

function polygon(coordinates: unknown): PolygonRings {
	if (!Array.isArray(coordinates) || coordinates.length === 0) {
		throw new Error('has a polygon without rings: coordinates must be [[[lon, lat], …], …]');
	}
	return coordinates.map(ring);
}

function ring(positions: unknown): GeoPoint[] {
	if (!Array.isArray(positions)) throw new Error(`has a ring that is not a list of positions (got ${preview(positions)})`);
	return positions.map(position);
}

function position(value: unknown): GeoPoint {
	if (!Array.isArray(value) || value.length < 2) throw new Error(`has a position that is not [lon, lat] (got ${preview(value)})`);
	const [longitude, latitude] = value;
	if (typeof longitude !== 'number' || !Number.isFinite(longitude) || typeof latitude !== 'number' || Math.abs(latitude) > 90) {
		throw new Error(`has a position that is not [lon, lat] with latitude in −90…90 (got ${preview(value)})`);
	}
	return { latitude, longitude };
}
