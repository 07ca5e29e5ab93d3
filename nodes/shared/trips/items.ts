/** Trips and stops as the items users get (the names saved workflows read: node-interface.md). */
import type { Segment } from './segment';
import type { TrackPoint } from './stretch';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Minutes and speeds to two decimals, kilometres to metres: finer than any fix is precise. */
export const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export const minutes = (ms: number) => round(ms / MINUTE_MS, 2);

export interface PositionAt {
	dateTime: string;
	latitude: number;
	longitude: number;
}

export const positionAt = (point: TrackPoint): PositionAt => ({
	dateTime: point.dateTime,
	latitude: point.latitude,
	longitude: point.longitude,
});

export interface SegmentItem {
	type: Segment['type'];
	deviceId: string;
	deviceName: string | undefined;
	start: PositionAt;
	end: PositionAt;
	durationMinutes: number;
	/** Null when no fix carried `rpm`: idling cannot be told, which is not the same as none. */
	idleMinutes: number | null;
	distanceKm?: number;
	/** The odometer's difference over the trip, in its own unit, when both ends carry a `milleage` above 0. */
	milleageDifference?: number;
	maxSpeed?: number | null;
	averageSpeed?: number | null;
}

export function segmentItem(segment: Segment, deviceId: string, deviceName: string | undefined): SegmentItem {
	const durationMs = segment.end.at - segment.start.at;
	const item: SegmentItem = {
		type: segment.type,
		deviceId,
		deviceName,
		start: positionAt(segment.start),
		end: positionAt(segment.end),
		durationMinutes: minutes(durationMs),
		idleMinutes: segment.rpmSeen ? minutes(segment.idleMs) : null,
	};
	if (segment.type === 'stop') return item;
	const distanceKm = segment.distanceMeters / 1000;
	item.distanceKm = round(distanceKm, 3);
	const { milleage: startKm } = segment.start;
	const { milleage: endKm } = segment.end;
	// 0 is what the API sends for a record without the odometer: no reading.
	if (startKm !== undefined && endKm !== undefined && startKm > 0 && endKm > 0) item.milleageDifference = round(endKm - startKm, 3);
	item.maxSpeed = segment.maxSpeed;
	// Over the whole trip, its traffic-light waits included, in km/h as the distance is measured.
	item.averageSpeed = durationMs > 0 ? round(distanceKm / (durationMs / HOUR_MS), 2) : null;
	return item;
}
