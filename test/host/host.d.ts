/** Types of host.js (CommonJS, so that jest.host.config.js reads it too). */
export declare const HOST_N8N_VERSION: string;
export declare const HOST_MODULES: string;
export declare const hostInstalled: boolean;
export declare const hostRequired: boolean;
