/** This release of Cabinet: what the browser, the admin page and traces say it is. */
export const CABINET_VERSION = '0.1.0';
