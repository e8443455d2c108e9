/** Liveness and readiness for load balancers and orchestrators. */
export { healthRoutes, probe } from './health.routes.ts';
