/**
 * Point in polygon on longitude/latitude, the way GeoJSON draws edges (straight in lon/lat), with
 * two rules that plain planar tests get wrong:
 * - an edge takes the shorter way round in longitude, so a ring through 179° and −179° crosses the
 *   antimeridian instead of spanning the globe (draw a wider polygon with more points);
 * - a ring that goes all the way round the globe encloses a pole: the one on the side of its mean
 *   latitude, i.e. the smaller cap, whatever its winding order.
 * Pure; points on an edge count as inside, like a point at exactly a circle's radius.
 */
import type { GeoPoint } from './distance';

/** [longitude, latitude], longitudes made continuous so no edge jumps by 360°. */
type Vertex = [number, number];

export interface PreparedRing {
	vertices: Vertex[];
	minLongitude: number;
	maxLongitude: number;
	/** Set when the ring winds round the globe; its vertices then include the enclosed pole. */
	pole?: 'north' | 'south';
}

/** A polygon's outer ring first, then its holes. */
export interface PreparedPolygon {
	rings: PreparedRing[];
}

const EPSILON = 1e-9;

/** The signed step from one longitude to the next, the shorter way round: (−180, 180]. */
export function longitudeStep(from: number, to: number): number {
	let step = (to - from) % 360;
	if (step > 180) step -= 360;
	if (step <= -180) step += 360;
	return step;
}

function withoutClosingPoint(points: GeoPoint[]): GeoPoint[] {
	const first = points[0];
	const last = points[points.length - 1];
	const closed =
		points.length > 1 &&
		first.latitude === last.latitude &&
		longitudeStep(first.longitude, last.longitude) === 0;
	return closed ? points.slice(0, -1) : points;
}

export function prepareRing(input: GeoPoint[]): PreparedRing {
	const points = withoutClosingPoint(input);
	if (points.length < 3) throw new Error('A polygon ring needs at least three distinct points.');
	const vertices: Vertex[] = [[points[0].longitude, points[0].latitude]];
	for (let i = 1; i < points.length; i++) {
		const previous = vertices[i - 1][0];
		vertices.push([previous + longitudeStep(points[i - 1].longitude, points[i].longitude), points[i].latitude]);
	}
	const [startLon, startLat] = vertices[0];
	const end = vertices[vertices.length - 1][0] + longitudeStep(points[points.length - 1].longitude, points[0].longitude);
	const turns = Math.round((end - startLon) / 360);
	let pole: PreparedRing['pole'];
	if (turns !== 0) {
		const meanLatitude = points.reduce((sum, point) => sum + point.latitude, 0) / points.length;
		pole = meanLatitude >= 0 ? 'north' : 'south';
		const poleLatitude = pole === 'north' ? 90 : -90;
		vertices.push([end, startLat], [end, poleLatitude], [startLon, poleLatitude]);
	}
	const longitudes = vertices.map(([lon]) => lon);
	return { vertices, minLongitude: Math.min(...longitudes), maxLongitude: Math.max(...longitudes), pole };
}

export function preparePolygon(rings: GeoPoint[][]): PreparedPolygon {
	if (rings.length === 0) throw new Error('A polygon needs an outer ring.');
	return { rings: rings.map(prepareRing) };
}

export function polygonContains(polygon: PreparedPolygon, point: GeoPoint): boolean {
	const [outer, ...holes] = polygon.rings;
	return ringContains(outer, point) && !holes.some((hole) => ringStrictlyContains(hole, point));
}

export function ringContains(ring: PreparedRing, point: GeoPoint): boolean {
	return locate(ring, point) !== 'outside';
}

function ringStrictlyContains(ring: PreparedRing, point: GeoPoint): boolean {
	return locate(ring, point) === 'inside';
}

type Place = 'inside' | 'edge' | 'outside';

function locate(ring: PreparedRing, point: GeoPoint): Place {
	// At a pole every longitude is the same place: inside exactly when the ring reaches that pole.
	if (Math.abs(point.latitude) >= 90 - EPSILON) {
		const poleLatitude = Math.sign(point.latitude) * 90;
		return ring.vertices.some(([, lat]) => Math.abs(lat - poleLatitude) < EPSILON) ? 'edge' : 'outside';
	}
	let best: Place = 'outside';
	for (const x of candidateLongitudes(ring, point.longitude)) {
		const place = locatePlanar(ring.vertices, x, point.latitude);
		if (place === 'inside') return place;
		if (place === 'edge') best = place;
	}
	return best;
}

/** The point's longitude moved by whole turns into the ring's continuous longitude range. */
function candidateLongitudes(ring: PreparedRing, longitude: number): number[] {
	const candidates: number[] = [];
	let x = longitude + 360 * Math.ceil((ring.minLongitude - longitude - EPSILON) / 360);
	for (; x <= ring.maxLongitude + EPSILON; x += 360) candidates.push(x);
	return candidates;
}

function locatePlanar(vertices: Vertex[], x: number, y: number): Place {
	let inside = false;
	for (let i = 0, j = vertices.length - 1; i < vertices.length; j = i++) {
		const [xi, yi] = vertices[i];
		const [xj, yj] = vertices[j];
		if (onSegment(x, y, xi, yi, xj, yj)) return 'edge';
		if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
	}
	return inside ? 'inside' : 'outside';
}

function onSegment(x: number, y: number, x1: number, y1: number, x2: number, y2: number): boolean {
	const cross = (x - x1) * (y2 - y1) - (y - y1) * (x2 - x1);
	const length = Math.hypot(x2 - x1, y2 - y1);
	if (Math.abs(cross) > EPSILON * Math.max(1, length)) return false;
	return (
		x >= Math.min(x1, x2) - EPSILON &&
		x <= Math.max(x1, x2) + EPSILON &&
		y >= Math.min(y1, y2) - EPSILON &&
		y <= Math.max(y1, y2) + EPSILON
	);
}
