// Every schema and constant of the contracts: the catalogue route declarations name their shapes from.
export * from './ids.ts';
export * from './common.ts';
export * from './config.ts';
export * from './error-codes.ts';
export * from './errors.ts';
export * from './limits.ts';
export * from './me.ts';
export * from './sessions.ts';
export * from './tokens.ts';
export * from './workspaces.ts';
export * from './items.ts';
export * from './uploads.ts';
export * from './events.ts';
export * from './documents.ts';
export * from './comments.ts';
export * from './grants.ts';
export * from './team.ts';
