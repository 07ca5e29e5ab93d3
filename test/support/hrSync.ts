/** The user upsert node as an HR-sync workflow sets it up: every field from the incoming row. Shared by the engine tests and the bench. */
export const HR_SYNC_UPSERT = {
	resource: 'user',
	operation: 'upsert',
	name: '={{ $json.name }}',
	email: '={{ $json.email }}',
	country: '={{ $json.country }}',
	timeZone: '={{ $json.timeZone }}',
};
