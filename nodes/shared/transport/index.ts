export { TrackingApiClient, type ClientOptions, type PathParams, type RequestContext, type RequestOptions } from './client';
export { requestToken } from './token';
export { MAX_RETRIES } from './retryPolicy';
