import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { layerCounts, runTool } from '../../support/trackTools';
import { ensure, ensureRunSucceeded, nodeItems, sinkEntries, type ExampleExpectation } from '../lib';

const TRIGGER = 'Every evening at 21';
const EXPORT_NODE = "The day's track per device";
const SINK = 'daily-tracks-by-email';

interface Part {
	headers: string;
	content: string;
}

/** The parts of a multipart/form-data body as the e-mail API receives it. */
function parts(body: string, contentType: string): Part[] {
	const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/.exec(contentType);
	ensure(boundary, `sink /${SINK}: expected multipart/form-data with a boundary, got ${JSON.stringify(contentType)}`);
	return body
		.split(`--${boundary[1] ?? boundary[2]}`)
		.slice(1, -1)
		.map((part) => {
			const split = part.indexOf('\r\n\r\n');
			return { headers: part.slice(0, split), content: part.slice(split + 4).replace(/\r\n$/, '') };
		});
}

/** What a GIS reads in the attached GPX: xmllint and GDAL's ogrinfo (scripts/e2e/install.sh track-tools) open it. */
function openedCounts(gpx: string): Record<string, number> {
	const folder = mkdtempSync(join(tmpdir(), 'daily-tracks-'));
	try {
		const file = join(folder, 'track.gpx');
		writeFileSync(file, gpx);
		runTool('xmllint', ['--noout', file]);
		return layerCounts(file);
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

// examples/daily-tracks-by-email.json, started at its Schedule Trigger as the editor's "Execute
// workflow" starts it: the last 24 hours of every device as a GPX, then one e-mail per van with a
// track to the e-mail API, the sandbox's sink as shipped, the file attached as multipart form data.
// Each attachment arrives under its file name and opens in GDAL with the item's trips and stops.
const expectation: ExampleExpectation = {
	id: 'exampleDailyTracks01',
	sinks: { 'E-mail the GPX': SINK },
	description: 'examples/daily-tracks-by-email.json: Schedule Trigger → Export Track (all devices, GPX) → vans with a track → e-mail with the GPX attached, opened by ogrinfo',
	run: { via: 'editor', trigger: TRIGGER },
	async check(run, ctx) {
		ensureRunSucceeded(run);
		const exported = nodeItems(run, EXPORT_NODE);
		ensure(exported.length >= 20, `${EXPORT_NODE}: expected one item per seeded device, got ${exported.length}`);
		const vans = exported.filter((item) => typeof item.fileName === 'string' && String(item.deviceName).includes('Van'));
		ensure(vans.length >= 3, `${EXPORT_NODE}: expected several vans with a track in the last 24 hours, got ${vans.length}`);
		const silent = exported.filter((item) => item.fileName === null);
		ensure(silent.every((item) => typeof item.message === 'string'), `${EXPORT_NODE}: a device without a file should say so, got ${JSON.stringify(silent[0])}`);

		const mails = await sinkEntries(ctx, SINK);
		ensure(mails.length === vans.length, `sink /${SINK}: expected one e-mail per van with a track (${vans.length}), got ${mails.length}`);
		for (const [index, van] of vans.entries()) {
			const mail = mails[index];
			ensure(typeof mail.body === 'string', `sink /${SINK} e-mail ${index}: expected a multipart body, got ${JSON.stringify(mail.body).slice(0, 200)}`);
			const fields = parts(mail.body, String(mail.headers['content-type']));
			const named = (name: string) => fields.find((part) => part.headers.includes(`name="${name}"`));
			ensure(named('to')?.content === 'dispatch@example.com', `sink /${SINK} e-mail ${index}: expected to dispatch@example.com`);
			ensure(named('subject')?.content.startsWith(String(van.deviceName)), `sink /${SINK} e-mail ${index}: expected a subject naming ${String(van.deviceName)}, got ${named('subject')?.content}`);
			const attachment = named('attachment');
			ensure(attachment, `sink /${SINK} e-mail ${index}: no attachment`);
			ensure(attachment.headers.includes(`filename="${String(van.fileName)}"`), `sink /${SINK} e-mail ${index}: expected the file ${String(van.fileName)}, got ${attachment.headers}`);
			ensure(/content-type: application\/gpx\+xml/i.test(attachment.headers), `sink /${SINK} e-mail ${index}: expected application/gpx+xml, got ${attachment.headers}`);
			const counts = openedCounts(attachment.content);
			ensure(
				counts.tracks === van.trips && counts.waypoints === van.stops,
				`sink /${SINK} e-mail ${index}: GDAL reads ${counts.tracks} tracks and ${counts.waypoints} waypoints in ${String(van.fileName)}, the item says ${String(van.trips)} trips and ${String(van.stops)} stops`,
			);
		}
	},
};

export default expectation;
