/** Great-circle distance between two positions. Pure. */

export interface GeoPoint {
	latitude: number;
	longitude: number;
}

/** Mean Earth radius (IUGG), the one Turf and most GIS tools use for haversine. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Haversine distance in metres; exact enough for geofences and movement thresholds on a sphere. */
export function distanceMeters(from: GeoPoint, to: GeoPoint): number {
	const dLat = toRadians(to.latitude - from.latitude);
	const dLon = toRadians(to.longitude - from.longitude);
	const a =
		Math.sin(dLat / 2) ** 2 +
		Math.cos(toRadians(from.latitude)) * Math.cos(toRadians(to.latitude)) * Math.sin(dLon / 2) ** 2;
	// Rounding can push `a` a hair above 1 for antipodal points.
	return 2 * EARTH_RADIUS_METERS * Math.asin(Math.sqrt(Math.min(1, a)));
}
