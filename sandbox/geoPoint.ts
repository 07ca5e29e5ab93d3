/**
 * A point on the globe: a device's home, a city, where a walker stands. A module of its own, so the
 * walker (track.ts) and the stories can both name it without naming each other.
 */
export interface GeoPoint {
	latitude: number;
	longitude: number;
}
