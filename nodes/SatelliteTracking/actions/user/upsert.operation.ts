import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrackingApiClient } from '../../../shared/transport';
import { changesCountry, planUpserts, type UpsertRequest, type UpsertStep } from '../../../shared/upsertPlan';
import { withoutWriteOnlyFields } from '../../../shared/users';
import type { UserWrite } from '../../../shared/wire';
import { readUser, requiredUserProperties, userAdditionalFields } from './userFields';
import type { OperationOption } from '../operation';

export const option: OperationOption = {
	name: 'Create or Update',
	description: 'Create a user, or update the one with the same e-mail',
	action: 'Create or update a user by e-mail (safe to repeat)',
};

export const properties: INodeProperties[] = [
	{
		displayName:
			'Matches users by e-mail (any case). A country given as a code, a name or a three-letter code is the same country. Creates the missing ones and changes only the fields that differ. A password is set only when a user is created.',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
	...requiredUserProperties,
	userAdditionalFields,
];

interface UpsertBatch {
	plan: Map<number, UpsertStep>;
	/** Items whose input failed its checks: each fails on its own, the others go ahead. */
	invalid: Map<number, unknown>;
}

/** Lists the users once for the whole run and decides every item against that one list. */
export async function prepareBatch(this: IExecuteFunctions, api: TrackingApiClient): Promise<UpsertBatch> {
	const requests: UpsertRequest[] = [];
	const invalid = new Map<number, unknown>();
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			const { set, cleared } = readUser(this, itemIndex);
			// A cleared field is compared as unset, so an existing value for it is removed.
			const user = { ...set, ...Object.fromEntries(cleared.map((field) => [field, null])) } as UserWrite;
			requests.push({ itemIndex, user });
		} catch (error) {
			invalid.set(itemIndex, error);
		}
	}
	const users = requests.length === 0 ? [] : await api.request('listUsers');
	const plan = planUpserts(users, requests);
	// "US", "United States" and "USA" are one country: ask the service's list only when it matters.
	if (!changesCountry(plan)) return { plan, invalid };
	return { plan: planUpserts(users, requests, await api.request('listCountries')), invalid };
}

export async function execute(this: IExecuteFunctions, itemIndex: number, api: TrackingApiClient, batch: UpsertBatch) {
	const step = batch.plan.get(itemIndex);
	if (!step) throw batch.invalid.get(itemIndex);
	switch (step.kind) {
		case 'create': {
			const created = await api.request('createUser', { body: step.user, itemIndex });
			return { action: 'created', user: withoutWriteOnlyFields(created) };
		}
		case 'update': {
			const updated = await api.request('updateUser', { params: { userId: step.userId }, body: step.patch, itemIndex });
			return { action: 'updated', user: withoutWriteOnlyFields(updated) };
		}
		case 'unchanged':
			return { action: 'unchanged', user: withoutWriteOnlyFields(step.user) };
		case 'superseded':
			// `user` is the user as listed before this run (null if new); the winning item reports the result.
			return {
				action: 'superseded',
				supersededBy: step.byItemIndex,
				user: step.user && withoutWriteOnlyFields(step.user),
			};
	}
}
