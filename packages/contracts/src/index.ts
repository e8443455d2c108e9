export * from './schemas.ts';
export * from './routes/index.ts';
