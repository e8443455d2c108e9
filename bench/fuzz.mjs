// `npm run fuzz [-- --calls N] [--seed S]`: the long fuzz of the API (bench/fuzz.ts), in TypeScript through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./fuzz.ts');
