import { distanceMeters } from '../../nodes/shared/geo/distance';
import { circleGeofence, geoJsonGeofence, geofenceContains, pointsGeofence, type Geofence } from '../../nodes/shared/geo/geofence';
import { longitudeStep, polygonContains, preparePolygon } from '../../nodes/shared/geo/polygon';

const at = (latitude: number, longitude: number) => ({ latitude, longitude });

function fence(check: ReturnType<typeof circleGeofence>): Geofence {
	if (!check.ok) throw new Error(check.problem);
	return check.value;
}

describe('distanceMeters (haversine)', () => {
	it('measures known distances', () => {
		// One degree of latitude on the mean sphere: 2πR/360.
		expect(distanceMeters(at(0, 0), at(1, 0))).toBeCloseTo(111_195.08, 1);
		// London → Paris, about 343.9 km on the sphere.
		expect(distanceMeters(at(51.5074, -0.1278), at(48.8566, 2.3522)) / 1000).toBeCloseTo(343.9, 0);
		expect(distanceMeters(at(10, 20), at(10, 20))).toBe(0);
	});

	it('takes the short way across the antimeridian and over the pole', () => {
		expect(distanceMeters(at(0, 179.5), at(0, -179.5))).toBeCloseTo(111_195.08, 1);
		expect(distanceMeters(at(89.5, 0), at(89.5, 180))).toBeCloseTo(111_195.08, 1);
	});

	it('stays finite for antipodal points', () => {
		expect(distanceMeters(at(0, 0), at(0, 180))).toBeCloseTo(Math.PI * 6_371_008.8, 0);
		expect(distanceMeters(at(90, 0), at(-90, 0))).toBeCloseTo(Math.PI * 6_371_008.8, 0);
	});
});

describe('longitudeStep', () => {
	it('is the signed shorter step', () => {
		expect(longitudeStep(179, -179)).toBe(2);
		expect(longitudeStep(-179, 179)).toBe(-2);
		expect(longitudeStep(10, 20)).toBe(10);
		expect(longitudeStep(0, 180)).toBe(180);
		expect(longitudeStep(0, -180)).toBe(180);
	});
});

describe('circle geofences', () => {
	const depot = fence(circleGeofence('Depot', 51.5, -0.12, 1000));

	it('contains points up to the radius, inclusive', () => {
		expect(geofenceContains(depot, at(51.5, -0.12))).toBe(true);
		expect(geofenceContains(depot, at(51.5 + 0.0089, -0.12))).toBe(true); // ~990 m north
		expect(geofenceContains(depot, at(51.5 + 0.0091, -0.12))).toBe(false); // ~1012 m north
	});

	it('works across the antimeridian and at a pole', () => {
		const dateLine = fence(circleGeofence('Dateline', 0, 180, 5000));
		expect(geofenceContains(dateLine, at(0, -179.97))).toBe(true);
		expect(geofenceContains(dateLine, at(0, 179.97))).toBe(true);
		expect(geofenceContains(dateLine, at(0, 179.9))).toBe(false);
		const pole = fence(circleGeofence('Pole', 90, 0, 20_000));
		expect(geofenceContains(pole, at(89.9, 123))).toBe(true);
		expect(geofenceContains(pole, at(89.9, -57))).toBe(true);
		expect(geofenceContains(pole, at(89.7, 0))).toBe(false);
	});

	it('rejects bad definitions with the field named', () => {
		expect(circleGeofence('', 0, 0, 10)).toEqual({ ok: false, problem: 'name is empty' });
		expect(circleGeofence('A', 91, 0, 10)).toMatchObject({ ok: false, problem: expect.stringContaining('latitude') });
		expect(circleGeofence('A', 0, 181, 10)).toMatchObject({ ok: false, problem: expect.stringContaining('longitude') });
		expect(circleGeofence('A', 0, 0, 0)).toMatchObject({ ok: false, problem: expect.stringContaining('radius') });
	});

	it('gives an edited geofence a new id, an unchanged one the same', () => {
		expect(fence(circleGeofence('Depot', 51.5, -0.12, 1000)).id).toBe(depot.id);
		expect(fence(circleGeofence('Depot', 51.5, -0.12, 1200)).id).not.toBe(depot.id);
		expect(fence(circleGeofence('Depot 2', 51.5, -0.12, 1000)).id).not.toBe(depot.id);
	});
});

describe('polygon geofences', () => {
	it('contains points inside a plain square, edges included, and not outside', () => {
		const yard = fence(pointsGeofence('Yard', '10, 10\n10, 11\n11, 11\n11, 10'));
		expect(geofenceContains(yard, at(10.5, 10.5))).toBe(true);
		expect(geofenceContains(yard, at(10, 10.5))).toBe(true);
		expect(geofenceContains(yard, at(11, 11))).toBe(true);
		expect(geofenceContains(yard, at(11.01, 10.5))).toBe(false);
		expect(geofenceContains(yard, at(10.5, 9.99))).toBe(false);
	});

	it('accepts ";" separators and a closing point, and rejects too few points', () => {
		const closed = fence(pointsGeofence('T', '0,0; 0,1; 1,0; 0,0'));
		expect(geofenceContains(closed, at(0.2, 0.2))).toBe(true);
		expect(pointsGeofence('T', '0,0; 0,1; 0,0')).toMatchObject({ ok: false, problem: expect.stringContaining('three distinct') });
		expect(pointsGeofence('T', '0,0; 0,1; banana')).toMatchObject({ ok: false, problem: expect.stringContaining('banana') });
		expect(pointsGeofence('T', '0,0; 0,1; 95,3')).toMatchObject({ ok: false, problem: expect.stringContaining('latitude') });
	});

	it('crosses the antimeridian by the short way (Fiji-like box from 179° to -179°)', () => {
		const box = fence(pointsGeofence('Fiji', '-16, 179\n-16, -179\n-18, -179\n-18, 179'));
		expect(geofenceContains(box, at(-17, 179.5))).toBe(true);
		expect(geofenceContains(box, at(-17, -179.5))).toBe(true);
		expect(geofenceContains(box, at(-17, 180))).toBe(true);
		expect(geofenceContains(box, at(-17, -180))).toBe(true);
		// A planar test would take the box to span the whole globe the other way round.
		expect(geofenceContains(box, at(-17, 0))).toBe(false);
		expect(geofenceContains(box, at(-17, 178.5))).toBe(false);
		expect(geofenceContains(box, at(-17, -178.5))).toBe(false);
	});

	it('reads GeoJSON with longitudes past 180 the same as wrapped ones', () => {
		const unwrapped = fence(
			geoJsonGeofence('Box', { type: 'Polygon', coordinates: [[[179, -16], [181, -16], [181, -18], [179, -18], [179, -16]]] }),
		);
		expect(geofenceContains(unwrapped, at(-17, -179.5))).toBe(true);
		expect(geofenceContains(unwrapped, at(-17, 179.5))).toBe(true);
		expect(geofenceContains(unwrapped, at(-17, 0))).toBe(false);
	});

	it('encloses the nearer pole with a ring that circles the globe (Arctic cap)', () => {
		const arctic = fence(pointsGeofence('Arctic', '80, 0\n80, 90\n80, 180\n80, -90'));
		expect(geofenceContains(arctic, at(85, 45))).toBe(true);
		expect(geofenceContains(arctic, at(85, -135))).toBe(true);
		expect(geofenceContains(arctic, at(89.999, 170))).toBe(true);
		expect(geofenceContains(arctic, at(90, 0))).toBe(true);
		expect(geofenceContains(arctic, at(79, 45))).toBe(false);
		expect(geofenceContains(arctic, at(-85, 45))).toBe(false);
		expect(geofenceContains(arctic, at(-90, 0))).toBe(false);
		// Winding order does not matter: the same ring the other way round is the same cap.
		const reversed = fence(pointsGeofence('Arctic', '80, -90\n80, 180\n80, 90\n80, 0'));
		expect(geofenceContains(reversed, at(85, 45))).toBe(true);
		expect(geofenceContains(reversed, at(0, 45))).toBe(false);
	});

	it('encloses the south pole with a southern ring', () => {
		const antarctic = fence(
			geoJsonGeofence(
				'Antarctic',
				JSON.stringify({ type: 'Polygon', coordinates: [[[-180, -70], [-60, -70], [60, -70], [180, -70]]] }),
			),
		);
		expect(geofenceContains(antarctic, at(-75, 10))).toBe(true);
		expect(geofenceContains(antarctic, at(-90, 77))).toBe(true);
		expect(geofenceContains(antarctic, at(-65, 10))).toBe(false);
		expect(geofenceContains(antarctic, at(90, 0))).toBe(false);
	});

	it('handles a polygon with a vertex at the pole (a pole-adjacent wedge)', () => {
		const wedge = fence(pointsGeofence('Wedge', '80, 0\n90, 0\n80, 30'));
		expect(geofenceContains(wedge, at(85, 10))).toBe(true);
		expect(geofenceContains(wedge, at(90, -120))).toBe(true);
		expect(geofenceContains(wedge, at(85, 40))).toBe(false);
		expect(geofenceContains(wedge, at(85, -10))).toBe(false);
	});

	it('leaves holes out and takes every polygon of a MultiPolygon', () => {
		const withHole = preparePolygon([
			[at(0, 0), at(0, 10), at(10, 10), at(10, 0)],
			[at(4, 4), at(4, 6), at(6, 6), at(6, 4)],
		]);
		expect(polygonContains(withHole, at(2, 2))).toBe(true);
		expect(polygonContains(withHole, at(5, 5))).toBe(false);
		const feature = fence(
			geoJsonGeofence('Two', {
				type: 'Feature',
				properties: {},
				geometry: {
					type: 'MultiPolygon',
					coordinates: [
						[[[0, 0], [1, 0], [1, 1], [0, 1]]],
						[[[20, 20], [21, 20], [21, 21], [20, 21]]],
					],
				},
			}),
		);
		expect(geofenceContains(feature, at(0.5, 0.5))).toBe(true);
		expect(geofenceContains(feature, at(20.5, 20.5))).toBe(true);
		expect(geofenceContains(feature, at(10, 10))).toBe(false);
	});

	it('explains GeoJSON it cannot use', () => {
		expect(geoJsonGeofence('X', '{nope')).toMatchObject({ ok: false, problem: expect.stringContaining('not valid JSON') });
		expect(geoJsonGeofence('X', { type: 'Point', coordinates: [0, 0] })).toMatchObject({
			ok: false,
			problem: expect.stringContaining('Polygon'),
		});
		expect(geoJsonGeofence('X', { type: 'Polygon', coordinates: [[[0, 0], [1, 95], [1, 1]]] })).toMatchObject({
			ok: false,
			problem: expect.stringContaining('latitude'),
		});
	});
});
