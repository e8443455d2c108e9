import type { TUser } from '@cabinet/contracts';
import type { ActorUser } from '../../db/schema.ts';

export function presentUser(user: ActorUser): TUser {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.email_verified,
    name: user.name,
    avatarUrl: user.avatar_url,
    isInstanceAdmin: user.is_instance_admin,
    createdAt: user.created_at.toISOString(),
  };
}
