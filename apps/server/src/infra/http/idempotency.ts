import { IDEMPOTENCY_KEY_HEADER, takesIdempotencyKey } from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError, invalidInput } from '../../errors.ts';
import { decrypt, deriveKey, encrypt } from '../../lib/crypto.ts';

/** How long a key answers for its first request (PRODUCT.md §7's retries come well within it). */
export const KEY_LIFETIME_MS = 24 * 60 * 60_000;
/** A claim this old without an answer is a request that died with its instance: its key may be claimed again. */
const ABANDONED_MS = 5 * 60_000;
/** How long a request waits for the answer of the same key's request still at work, and how often it looks. */
const WAIT_MS = 30_000;
const LOOK_EVERY_MS = 50;
/** 1–255 visible ASCII characters (a UUID, a random string). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** A key held by the request at work: its answer is kept when it succeeds, the key given back when it fails. */
interface Claim {
  caller: string;
  route: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim | undefined;
  }
}

const badKey = (message: string) => invalidInput([{ path: `headers.${IDEMPOTENCY_KEY_HEADER}`, message }]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What makes two requests the same request: their parameters, query and body (a file's bytes as they are). */
function requestHash(req: FastifyRequest): string {
  const hash = createHash('sha256').update(JSON.stringify([req.params ?? null, req.query ?? null]));
  hash.update('\n');
  hash.update(req.body instanceof Uint8Array ? req.body : JSON.stringify(req.body ?? null));
  return hash.digest('hex');
}

/** Claims a key for a request, unless another holds it; answers whether it did. */
async function claim(db: Db, c: Claim, requestHash: string): Promise<boolean> {
  const row = await db
    .insertInto('idempotency_keys')
    // Its time to the millisecond, as JavaScript holds it, so that a take-over can find the row as it was read.
    .values({ ...c, request_hash: requestHash, created_at: new Date() })
    .onConflict((oc) => oc.columns(['caller', 'route', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** Claims again a key whose row is as it was read (forgotten or abandoned); another request may have been quicker. */
async function takeOver(db: Db, c: Claim, requestHash: string, createdAt: Date): Promise<boolean> {
  const row = await db
    .updateTable('idempotency_keys')
    .set({ request_hash: requestHash, status: null, answer: null, created_at: new Date() })
    .where('caller', '=', c.caller)
    .where('route', '=', c.route)
    .where('key', '=', c.key)
    .where('created_at', '=', createdAt)
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

const findKey = (db: Db, c: Claim) =>
  db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'answer', 'created_at'])
    .where('caller', '=', c.caller)
    .where('route', '=', c.route)
    .where('key', '=', c.key)
    .executeTakeFirst();

const forget = (db: Db, c: Claim) =>
  db.deleteFrom('idempotency_keys').where('caller', '=', c.caller).where('route', '=', c.route).where('key', '=', c.key).execute();

/**
 * Creation calls made once (ADR 0043): on the routes that take `Idempotency-Key` (the POSTs that
 * make something, for a signed-in caller), the first request with a key claims it before its work
 * and keeps its answer, sealed; the same key from the same caller (their session, or one API token)
 * on the same route within a day is answered with that answer, and the work is not done again. A
 * second request arriving while the first is at work waits for its answer. The key of another
 * request is `invalid_input`. A request that fails gives its key back: nothing was made, and the
 * same request may be sent again.
 */
export function makeCreationsOnce(scope: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const sealKey = deriveKey(ctx.env.SESSION_SECRET, 'idempotent-answers');

  scope.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers[IDEMPOTENCY_KEY_HEADER];
    const declaration = req.routeOptions.config.route;
    if (header === undefined || !declaration || !takesIdempotencyKey(declaration) || !req.actor) return;
    const key = Array.isArray(header) ? header.join(', ') : header;
    if (!KEY_SHAPE.test(key)) throw badKey('must be 1 to 255 visible ASCII characters');
    const c: Claim = {
      caller: req.actor.tokenId ? `token:${req.actor.tokenId}` : `user:${req.actor.user.id}`,
      route: `${declaration.method} ${declaration.path}`,
      key,
    };
    const hash = requestHash(req);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      // A new key (nearly always) is claimed in one statement; only a key seen before is read.
      if (await claim(db, c, hash)) return void (req.idempotencyClaim = c);
      const row = await findKey(db, c);
      // Forgotten since the claim was refused: claimed again.
      if (!row) continue;
      const age = Date.now() - row.created_at.getTime();
      if ((age > KEY_LIFETIME_MS || (row.status === null && age > ABANDONED_MS)) && (await takeOver(db, c, hash, row.created_at)))
        return void (req.idempotencyClaim = c);
      if (row.request_hash !== hash) throw badKey('was used for another request: use a new key for each request');
      if (row.status !== null && row.answer !== null) {
        let answer: string;
        try {
          answer = decrypt(sealKey, row.answer);
        } catch {
          // Sealed under an earlier SESSION_SECRET: it cannot be given again, so the key starts afresh.
          await forget(db, c);
          continue;
        }
        return reply.code(row.status).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true').send(answer);
      }
      if (Date.now() > deadline) throw new AppError('rate_limited', 'A request with this key is still being answered. Try again shortly.', { retryAfter: 1 });
      await sleep(LOOK_EVERY_MS);
    }
  });

  // Before the answer is compressed: what is kept is the JSON as sent.
  scope.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const c = req.idempotencyClaim;
    if (!c) return payload;
    req.idempotencyClaim = undefined;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
        await db
          .updateTable('idempotency_keys')
          .set({ status: reply.statusCode, answer: encrypt(sealKey, payload) })
          .where('caller', '=', c.caller)
          .where('route', '=', c.route)
          .where('key', '=', c.key)
          .execute();
      } else {
        await forget(db, c);
      }
    } catch (error) {
      // The work is done and answered; a retry with this key waits, then is refused, until the claim is abandoned.
      req.log.error({ err: error }, 'the answer of an idempotent request could not be kept');
    }
    return payload;
  });
}

/** Forgets keys past their day (the idempotency.prune job); answers how many. */
export async function pruneIdempotencyKeys(db: Db, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(now - KEY_LIFETIME_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
