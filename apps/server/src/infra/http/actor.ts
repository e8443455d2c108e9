import type { TTokenScope } from '@cabinet/contracts';
import type { FastifyRequest } from 'fastify';
import type { ActorUser } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** Who is calling: a signed-in person (session cookie) or a script (API token). */
export interface Actor {
  user: ActorUser;
  via: 'session' | 'token';
  sessionId: string | null;
  tokenId: string | null;
  scopes: TTokenScope[];
  /** Where the call came from, for the activity record. */
  ip: string;
  userAgent: string | null;
  /** The browser tab that called (X-Client-Id), so its own changes are not sent back to it. */
  clientId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

export function requireActor(req: FastifyRequest): Actor {
  if (!req.actor) throw new AppError('unauthenticated');
  return req.actor;
}
