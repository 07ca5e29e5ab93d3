import { type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { checked, invalidInput } from '../../../shared/parameters';
import type { TrackingApiClient } from '../../../shared/transport';
import { toBoolean, toNonEmptyText, toVerbatimText, type Check } from '../../../shared/validation';
import { COMMAND_FORMATS, type CommandFormat, type SendCommandRequest } from '../../../shared/wire';
import { collection, deviceLocator } from '../../../shared/descriptions';
import type { OperationOption } from '../operation';
import { readDeviceId } from '../toolMode';
import { isVersion1 } from '../versions';

export const option: OperationOption = {
	name: 'Send Command',
	description: 'Send a command to a device',
	action: 'Send a command to a device',
};

export const properties: INodeProperties[] = [
	{ ...deviceLocator, description: 'The device to send the command to' },
	{
		displayName: 'Command',
		name: 'command',
		type: 'string',
		default: '',
		required: true,
		description: "The command in the device's own protocol",
	},
	collection('additionalFields', 'Additional Fields', 'Add Field', [
		{
			displayName: 'Format',
			name: 'format',
			type: 'options',
			default: 'Text',
			options: COMMAND_FORMATS.map((format) => ({ name: format, value: format })),
			description: 'How the command text is encoded',
		},
		{
			displayName: 'Send by SMS',
			name: 'sms',
			type: 'boolean',
			default: false,
			description: "Whether to send the command as an SMS to the device's phone number instead of over its data link",
		},
	]),
];

// Byte pairs as the sendCommand page writes them ("0A 1B 2C"), hyphen-separated ("0A-1B-2C") or joined.
const HEX_BYTES = /^[0-9a-fA-F]{2}([ -]?[0-9a-fA-F]{2})*$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Checked without the surrounding white space, which is still sent: the device may expect it. */
const FORMAT_CHECKS: Record<CommandFormat, (command: string) => Check<string>> = {
	Text: (command) => ({ ok: true, value: command }),
	Hex: (command) =>
		HEX_BYTES.test(command.trim())
			? { ok: true, value: command }
			: { ok: false, problem: 'is not hexadecimal (pairs of 0-9, a-f)' },
	Base64: (command) =>
		BASE64.test(command.trim()) && command.trim().length % 4 === 0
			? { ok: true, value: command }
			: { ok: false, problem: 'is not Base64' },
};

/**
 * Version 1 sent the command trimmed, and read hex with any white space between the digit pairs.
 * The vendor's own forms (hyphen-separated "0A-1B-2C") are valid input in every version.
 */
const VERSION_1_HEX: (command: string) => Check<string> = (command) =>
	/^([0-9a-fA-F]{2})+$/.test(command.replace(/\s+/g, '')) ? { ok: true, value: command } : FORMAT_CHECKS.Hex(command);

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient) {
	const deviceId = await readDeviceId(this, itemIndex, api);
	const version1 = isVersion1(this);
	const text = checked(this, itemIndex, 'Command', (version1 ? toNonEmptyText : toVerbatimText)(this.getNodeParameter('command', itemIndex)));
	const { format, sms } = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: SendCommandRequest = { command: text };
	if (format !== undefined) {
		if (!COMMAND_FORMATS.includes(format as CommandFormat)) {
			throw invalidInput(this, itemIndex, 'Format', `must be one of ${COMMAND_FORMATS.join(', ')}`);
		}
		body.format = format as CommandFormat;
		checked(this, itemIndex, 'Command', (version1 && body.format === 'Hex' ? VERSION_1_HEX : FORMAT_CHECKS[body.format])(text));
	}
	if (sms !== undefined) body.sms = checked(this, itemIndex, 'Send by SMS', toBoolean(sms));
	const result = await api.request('sendCommand', { params: { deviceId }, body, itemIndex });
	return { deviceId, command: text, result };
}
