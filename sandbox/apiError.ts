/** A failure the API answers with its envelope: `{ success: false, error: message }` and this status. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export const badRequest = (message: string) => new ApiError(400, message);
