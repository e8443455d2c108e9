// Search (ADR 0036): what the rest of the server may use.
export { searchRoutes } from './search.routes.ts';
export { indexPending, searchReader } from './search-indexer.ts';
export { countTasks, indexLagSeconds, queueEverything } from './search-indexer.repo.ts';
export { relanguage } from './search-settings.ts';
