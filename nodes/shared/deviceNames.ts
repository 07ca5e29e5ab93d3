/**
 * Names devices by id for one run: each device is looked up once, however many items (or items
 * under way at once) ask for it. A failed lookup is forgotten, so the next item asking tries again
 * instead of inheriting an error that was not its own.
 */
export type DeviceNames = (deviceId: string) => Promise<string>;

export function deviceNames(lookUp: (deviceId: string) => Promise<string>): DeviceNames {
	const known = new Map<string, Promise<string>>();
	return (deviceId) => {
		let name = known.get(deviceId);
		if (name === undefined) {
			name = lookUp(deviceId);
			known.set(deviceId, name);
			name.catch(() => known.delete(deviceId));
		}
		return name;
	};
}
