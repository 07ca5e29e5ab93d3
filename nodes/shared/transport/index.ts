export { TrackingApiClient, type ClientOptions, type PathParams, type RequestContext } from './client';
export { requestToken } from './token';
export { MAX_RETRIES } from './retryPolicy';
