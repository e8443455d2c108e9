/** Files converted on the server to be shown in the viewer: documents as HTML, sheets a page at a time (ADR 0039). */
export { conversionsRoutes } from './conversions.routes.ts';
export { htmlOfFile, sheetsOfFile } from './conversions.service.ts';
