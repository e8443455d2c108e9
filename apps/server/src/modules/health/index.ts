/** Liveness and readiness for load balancers and orchestrators. */
export { healthRoutes } from './health.routes.ts';
