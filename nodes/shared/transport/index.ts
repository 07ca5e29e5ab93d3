export { TrackingApiClient, ranOutOfTime, MAX_RETRIES, type ClientOptions, type PathParams, type RequestBudget, type RequestContext, type RequestOptions } from './client';
export type { UsageCounters } from './envelope';
export { DEFAULT_TIMEOUT_SECONDS } from './token';
export { systemClock } from './pacer';
export { idsNamed } from './failure';
