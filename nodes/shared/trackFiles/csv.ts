/**
 * CSV (RFC 4180) for spreadsheets: one row per trip fix and one per stop, in time order, with a
 * header. Pure.
 */
import type { ExportedTrack } from './exportedTrack';

const CSV_COLUMNS = ['type', 'number', 'time', 'latitude', 'longitude', 'speed', 'course', 'end', 'durationMinutes'] as const;

type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>;

/** Quoted when it holds a comma, quote or line break; a leading =, +, - or @ is kept from being read as a formula. */
export function csvField(value: string | number | undefined): string {
	if (value === undefined) return '';
	const text = typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : String(value);
	return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function writeCsv(track: ExportedTrack): string {
	const rows: Array<{ at: string; row: Row }> = [];
	for (const trip of track.trips) {
		for (const { time, latitude, longitude, speed, course } of trip.points) rows.push({ at: time, row: { type: 'trip', number: trip.number, time, latitude, longitude, speed, course } });
	}
	for (const { number, start, latitude, longitude, end, durationMinutes } of track.stops) {
		rows.push({ at: start, row: { type: 'stop', number, time: start, latitude, longitude, end, durationMinutes } });
	}
	// A stop starts where its trip ended: at the same time, the trip's last fix comes first.
	rows.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
	const lines = [CSV_COLUMNS.join(','), ...rows.map(({ row }) => CSV_COLUMNS.map((column) => csvField(row[column])).join(','))];
	return `${lines.join('\r\n')}\r\n`;
}
