import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { compressJson } from '../apps/server/src/infra/web/compress.ts';
import { freePort } from '../apps/server/src/testing/test-app.ts';

/** The caller of a bare route: the API token's user, read in one indexed query (live tokens of active users only). */
export interface BareUser {
  id: string;
  email: string;
  email_verified: boolean;
  name: string;
  avatar_url: string | null;
  is_instance_admin: boolean;
  created_at: Date;
}

/**
 * The baselines' bare API: Fastify on the same database and driver as Cabinet, with no hooks but Cabinet's own
 * compression of JSON answers (the same bytes on the wire), listening on a free port of 127.0.0.1. Each route does
 * the least its Cabinet counterpart must do; the benches say what.
 */
export async function bareApi(db: Kysely<any>, routes: (app: FastifyInstance, authenticate: (req: FastifyRequest) => Promise<BareUser | undefined>) => void) {
  const app = Fastify();
  app.addHook('onSend', compressJson);
  const authenticate = async (req: FastifyRequest) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) return undefined;
    const tokenHash = createHash('sha256').update(bearer).digest('hex');
    const { rows } = await sql<BareUser>`
      SELECT u.id, u.email, u.email_verified, u.name, u.avatar_url, u.is_instance_admin, u.created_at
      FROM api_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND t.expires_at > now() AND u.status = 'active'`.execute(db);
    return rows[0];
  };
  routes(app, authenticate);
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
