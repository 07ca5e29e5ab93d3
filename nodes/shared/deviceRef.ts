import type { Check } from './validation';
import type { Device } from './wire';

/** How many near names an error offers: enough to pick from, short enough for a model's context. */
const MAX_SUGGESTIONS = 5;

const normalized = (text: string) => text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

const label = (device: Device) => `"${device.name}" (ID ${device.id})`;

/**
 * The device a caller means by `given`: its ID, else its name (any case, spaces squeezed), as an AI
 * agent says "van 12" where an ID is expected, else its ID in another case ("DEVICE012"). A name two devices share is refused with both IDs,
 * and an unknown one with the devices whose names come closest, so the caller can ask again
 * without guessing.
 */
/** Whether `given` is the name of some device (any case, spaces squeezed). */
export function namesADevice(devices: Device[], given: string): boolean {
	const wanted = normalized(given);
	return devices.some((device) => normalized(device.name ?? '') === wanted);
}

export function matchDevice(devices: Device[], given: string): Check<string> {
	if (devices.some((device) => device.id === given)) return { ok: true, value: given };
	const wanted = normalized(given);
	const named = devices.filter((device) => normalized(device.name ?? '') === wanted);
	if (named.length === 1) return { ok: true, value: named[0].id };
	if (named.length > 1) {
		return { ok: false, problem: `"${given}" is the name of ${named.length} devices: ${named.map(label).join(', ')}. Give one of their IDs.` };
	}
	const sameIdAnyCase = devices.filter((device) => normalized(device.id) === wanted);
	if (sameIdAnyCase.length === 1) return { ok: true, value: sameIdAnyCase[0].id };
	const words = wanted.split(' ').filter((word) => word !== '');
	const near = devices
		.map((device) => ({ device, hits: words.filter((word) => normalized(device.name ?? '').includes(word)).length }))
		.filter(({ hits }) => hits > 0)
		.sort((a, b) => b.hits - a.hits)
		.slice(0, MAX_SUGGESTIONS)
		.map(({ device }) => label(device));
	const hint = near.length > 0 ? ` Devices with a similar name: ${near.join(', ')}.` : ' List the devices to find its ID.';
	return { ok: false, problem: `"${given}" is neither the ID nor the name of a device.${hint}` };
}
