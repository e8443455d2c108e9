/** People's accounts in Cabinet, as sign-in and sharing find and keep them. */
export { meRoutes } from './me.routes.ts';
export {
  ACTOR_USER_COLUMNS,
  countUsers,
  findActiveUserById,
  findUserByIdentity,
  findUsersByEmail,
  insertUser,
  lockUserCreation,
  updateUser,
} from './users.repo.ts';
export { findShareableUser } from './users.service.ts';
