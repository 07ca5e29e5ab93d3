import { ensure, ensureRunSucceeded, nodeItems, type WorkflowExpectation } from '../lib';

const EMAIL = 'e2e.round-trip@example.com';

function sorted(value: unknown): string {
	return Array.isArray(value) ? [...value].map(String).sort().join(',') : JSON.stringify(value);
}

function only(run: Parameters<WorkflowExpectation['check']>[0], node: string): Record<string, unknown> {
	const items = nodeItems(run, node);
	ensure(items.length === 1, `${node}: expected 1 item, got ${items.length}`);
	return items[0];
}

const expectation: WorkflowExpectation = {
	description: 'group create → add devices → user create/update/upsert/get/delete → remove devices → group get/delete',
	check(run) {
		ensureRunSucceeded(run);

		const group = only(run, 'Create group');
		const groupId = group.id;
		ensure(typeof groupId === 'string' && groupId !== '', `Create group: no id in ${JSON.stringify(group)}`);
		ensure(group.name === 'E2E round-trip group', `Create group: name ${JSON.stringify(group.name)}`);
		ensure(sorted(group.devices) === 'device001', `Create group: devices ${JSON.stringify(group.devices)}`);

		const added = only(run, 'Add devices');
		ensure(added.id === groupId, `Add devices: answered for group ${String(added.id)}, not ${groupId}`);
		ensure(sorted(added.devices) === 'device001,device002,device003', `Add devices: devices ${JSON.stringify(added.devices)}`);

		const user = only(run, 'Create user');
		const userId = user.id;
		ensure(typeof userId === 'string' && userId !== '', `Create user: no id in ${JSON.stringify(user)}`);
		ensure(user.email === EMAIL && user.group === groupId, `Create user: ${JSON.stringify(user)}`);
		ensure(!user.password, 'Create user: the output carries a password');

		const updated = only(run, 'Update user');
		ensure(updated.id === userId && updated.description === 'updated by the e2e run', `Update user: ${JSON.stringify(updated)}`);
		ensure(updated.name === 'E2E Round Trip', `Update user changed the name: ${JSON.stringify(updated.name)}`);

		const upsert = only(run, 'Upsert user');
		const upserted = upsert.user as Record<string, unknown> | undefined;
		ensure(upsert.action === 'updated', `Upsert user: expected action "updated" (matched on e-mail), got ${JSON.stringify(upsert.action)}`);
		ensure(upserted?.id === userId && upserted.name === 'E2E Round Trip Renamed', `Upsert user: ${JSON.stringify(upsert)}`);

		const fetched = only(run, 'Get user');
		ensure(fetched.id === userId && fetched.name === 'E2E Round Trip Renamed', `Get user: ${JSON.stringify(fetched)}`);

		const deletedUser = only(run, 'Delete user');
		ensure(deletedUser.deleted === true && deletedUser.id === userId, `Delete user: ${JSON.stringify(deletedUser)}`);

		const removed = only(run, 'Remove devices');
		ensure(sorted(removed.devices) === 'device002,device003', `Remove devices: devices ${JSON.stringify(removed.devices)}`);

		const groupAgain = only(run, 'Get group');
		ensure(groupAgain.id === groupId && sorted(groupAgain.devices) === 'device002,device003', `Get group: ${JSON.stringify(groupAgain)}`);

		const deletedGroup = only(run, 'Delete group');
		ensure(deletedGroup.deleted === true && deletedGroup.id === groupId, `Delete group: ${JSON.stringify(deletedGroup)}`);

		const users = nodeItems(run, 'Users after');
		ensure(users.length > 0, 'Users after: the seeded users are missing');
		ensure(!users.some((u) => u.id === userId || u.email === EMAIL), 'Users after: the deleted user is still listed');
		const groups = nodeItems(run, 'Groups after');
		ensure(!groups.some((g) => g.id === groupId), 'Groups after: the deleted group is still listed');
	},
};

export default expectation;
