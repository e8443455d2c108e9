/** Two-step sign-in with the embedded provider: Account → Security's calls. */
export { twoStepRoutes } from './two-step.routes.ts';
