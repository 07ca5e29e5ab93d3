/** How fixes are cut into trips and stops: the options Get Trips and Stops, Export Track and Get Daily Summary share. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { checked } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { readTripSettings as fromParameters } from '../../../shared/trips/properties';
import { segmentTrack, TRIP_DEFAULTS, type RawFix, type Track, type TripSettings } from '../../../shared/trips/segment';
import type { Device } from '../../../shared/wire';
import { perDevice, selectedDeviceIds } from '../deviceSelection';

export function readTripSettings(context: IExecuteFunctions, itemIndex: number): TripSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return fromParameters((name) => options[name], (label, result) => checked(context, itemIndex, label, result), TRIP_DEFAULTS);
}

/**
 * Each selected device's fixes over the range, one call per device (the endpoint answers a whole
 * range; no paging is documented), cut into trips and stops: a silence up to the range's end (or
 * now, when that is earlier) ends a trip, as in the trigger. `keep` takes what the caller needs, so
 * a month of fixes per device is let go once it is cut.
 */
export async function readRangeTracks<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	api: TrackingApiClient,
	listing: Device[],
	range: { from: string; to: string },
	settings: TripSettings,
	keep: (track: Track, fixes: readonly RawFix[]) => T,
) {
	const endsAt = Math.min(Date.parse(range.to), Date.now());
	return await perDevice(api, itemIndex, await selectedDeviceIds(context, itemIndex, api, listing, 'devices'), listing, async (deviceId) => {
		const fixes = await api.request('getLocations', { params: { deviceId }, body: range, itemIndex });
		return keep(segmentTrack(fixes, settings, endsAt), fixes);
	});
}
