import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ZId } from '@cabinet/contracts';
import { Redis } from '@hocuspocus/extension-redis';
import { Hocuspocus, type beforeBroadcastStatelessPayload, type Connection, type Extension, type onAwarenessUpdatePayload, type onChangePayload, type onStoreDocumentPayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis as IORedis } from 'ioredis';
import { WebSocketServer } from 'ws';
import { documentText } from '@cabinet/doc-schema/server';
import { carriesWellFormedUpdate } from './well-formed.ts';
import * as Y from 'yjs';
import type { AppContext } from '../context.ts';
import { AppError, isDatabaseUnavailable } from '../errors.ts';
import { limiter, type Limiter } from '../lib/limiter.ts';
import type { Actor } from '../modules/auth/actor.ts';
import { publish, type EventHub } from '../modules/events/events.ts';
import { findDocumentState, insertRevision, saveDocumentState } from '../modules/documents/documents.repo.ts';
import { requireItem } from '../modules/items/items.policy.ts';
import { upsertVisit } from '../modules/items/items.repo.ts';
import { inTransaction } from '../db/client.ts';

export const COLLAB_PATH = '/collab';
/** A message bigger than this closes the socket: no edit is this large, a paste of a book included. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type SocketActor = (req: { method: string; headers: IncomingMessage['headers']; ip: string }, token: string) => Promise<Actor>;

interface CollabContext {
  actor: Actor;
  /** The caller again, from the credentials the socket opened with (a revoked session or token fails). */
  reauthenticate: () => Promise<Actor>;
  /** The document's workspace: a change of access there makes this connection look again. */
  workspaceId: string;
  /** When the caller and their access were last looked up. */
  checkedAt: number;
  /** A look in progress, and whether another must follow it (access changed again meanwhile). */
  checking?: Promise<void> | undefined;
  checkAgain?: boolean;
  /** Why the connection was closed when access went (its messages are refused from then on). */
  revoked?: string;
}

/** The close code for a malformed update (4000–4999 are the application's). */
const INVALID_UPDATE_CLOSE_CODE = 4400;
/** The close code for a caller whose access (session, token, account, share, the item itself) went. */
const ACCESS_GONE_CLOSE_CODE = 4403;
/** The close code for a socket that did not authenticate in time. */
const UNAUTHENTICATED_CLOSE_CODE = 4401;

/**
 * Access is looked up again on an update at most this often. A change of access is announced
 * (AccessChange) and looked at at once; this catches what an announcement cannot (a share expiring).
 */
const RECHECK_MS = 5_000;
/** A socket that has not opened a document by then is closed: otherwise it would hold its file descriptor for ever. */
const AUTHENTICATION_DEADLINE_MS = 10_000;

/** The caller's address, from X-Forwarded-For only when TRUST_PROXY says a proxy sets it (as the HTTP routes take it). */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',')[0]!.trim() : '';
  return forwarded || (req.socket.remoteAddress ?? '');
}

/**
 * Who may keep a document open: looks again at the caller and their access. Access gone closes
 * the connection with its reason; without the `edit` ability (below editor, or a token without
 * `write`) the connection becomes read-only, and the client is told. A database that does not answer is no verdict: the connection
 * stays as it was and is looked at again shortly.
 */
function accessChecker(ctx: AppContext, reads: Limiter) {
  return function recheck(connection: Connection): Promise<void> {
    const c = connection.context as CollabContext;
    if (c.checking) {
      c.checkAgain = true;
      return c.checking;
    }
    const look = async () => {
      do {
        c.checkAgain = false;
        c.checkedAt = Date.now();
        try {
          const { abilities } = await reads(async () => {
            c.actor = await c.reauthenticate();
            return requireItem(ctx.db, c.actor, connection.document.name, 'view');
          });
          const readOnly = !abilities.edit;
          if (readOnly !== connection.readOnly) {
            connection.readOnly = readOnly;
            connection.sendStateless(JSON.stringify({ type: 'access', readOnly }));
          }
        } catch (error) {
          if (!(error instanceof AppError)) {
            c.checkedAt = 0;
            setTimeout(() => void (connection.document.hasConnection(connection) && recheck(connection)), RECHECK_MS).unref();
            return;
          }
          c.revoked = error.code;
          connection.close({ code: ACCESS_GONE_CLOSE_CODE, reason: error.code });
          return;
        }
      } while (c.checkAgain);
    };
    c.checking = look().finally(() => (c.checking = undefined));
    return c.checking;
  };
}

/**
 * Who may open a document: the socket's caller (API token, or the session cookie from Cabinet's
 * own origin) must see the document item; without the `edit` ability the connection is read-only,
 * so the server drops every update it sends.
 */
function authorization(ctx: AppContext, socketActor: SocketActor, reads: Limiter, recheck: (connection: Connection) => Promise<void>, authenticated: WeakSet<IncomingMessage>): Extension {
  return {
    extensionName: 'cabinet-authorization',
    async onAuthenticate({ token, documentName, request, connectionConfig }) {
      try {
        if (!ZId.safeParse(documentName).success) throw new AppError('not_found');
        const reauthenticate = () => socketActor({ method: 'GET', headers: request.headers, ip: clientAddress(request, ctx.env.TRUST_PROXY) }, token);
        const { actor, item, abilities } = await reads(async () => {
          const actor = await reauthenticate();
          return { actor, ...(await requireItem(ctx.db, actor, documentName, 'view')) };
        });
        if (item.kind !== 'document') throw new AppError('not_found');
        // Opening a document is a visit: it goes to the top of the person's Recent.
        await reads(() => upsertVisit(ctx.db, actor.user.id, item.id));
        connectionConfig.readOnly = !abilities.edit;
        authenticated.add(request);
        return { actor, reauthenticate, workspaceId: item.workspace_id, checkedAt: Date.now() } satisfies CollabContext;
      } catch (error) {
        // Hocuspocus refuses the socket ("permission denied") and tells the client this reason.
        const code = error instanceof AppError ? error.code : isDatabaseUnavailable(error) ? 'database_unavailable' : 'internal';
        throw Object.assign(new Error(code), { reason: code });
      }
    },
    // Every message passes here: access that was withdrawn or lowered since it was last looked at
    // closes the connection or makes it read-only before the message is applied.
    async beforeHandleMessage({ connection, context, update }) {
      // A change that is not a Yjs update closes the socket before anything reads it.
      if (!carriesWellFormedUpdate(update)) throw Object.assign(new Error('invalid_update'), { code: INVALID_UPDATE_CLOSE_CODE, reason: 'invalid_update' });
      const c = context as CollabContext;
      if (c.checking || Date.now() - c.checkedAt >= RECHECK_MS) await recheck(connection);
      if (c.revoked) throw Object.assign(new Error(c.revoked), { code: ACCESS_GONE_CLOSE_CODE, reason: c.revoked });
    },
  };
}

/** Edits since a document's last revision: since when, and by whom. */
interface Unrevised {
  since: number;
  authors: Set<string>;
}

/** Waits before another attempt at a write while the database is away: 0.5 s, 1 s, 2 s … at most this. */
const MAX_RETRY_DELAY_MS = 15_000;

/** SQLSTATE class 40 (a deadlock, a serialization failure): the same write succeeds when tried again. */
const worthRetrying = (error: unknown) => isDatabaseUnavailable(error) || /^40/.test((error as { code?: string } | undefined)?.code ?? '');

/**
 * Collaboration writes to the database: at most a few at once (200 editors leaving together queue
 * here instead of all waiting for the pool), each tried again with growing pauses while the
 * database is away, so what is in memory is saved once it returns. Nothing here rejects: a write
 * that cannot succeed (the document was deleted) is logged and given up.
 */
function collabWriter(writes: Limiter, log: FastifyBaseLogger) {
  const stopping = new AbortController();
  return {
    /** True once written; false when given up. */
    async persist(what: string, write: () => Promise<void>): Promise<boolean> {
      for (let attempt = 0; ; attempt++) {
        try {
          await writes(write);
          if (attempt > 0) log.info({ what, attempts: attempt + 1 }, 'collaboration write succeeded after the database returned');
          return true;
        } catch (error) {
          if (!worthRetrying(error) || stopping.signal.aborted) {
            log.error({ err: error, what }, 'collaboration write failed; the change is not stored');
            return false;
          }
          if (attempt === 0) log.warn({ err: error, what }, 'collaboration write failed; trying again until the database answers');
          // Closing: one last attempt now instead of waiting.
          await sleep(Math.min(500 * 2 ** attempt, MAX_RETRY_DELAY_MS), undefined, { signal: stopping.signal }).catch(() => {});
        }
      }
    },
    /** Stops waiting between attempts (the server is closing): each pending write is tried once more. */
    stop: () => stopping.abort(),
  };
}

/**
 * Documents load from and save to PostgreSQL: the whole state as one Yjs update, and its plain
 * text. A revision is recorded once the edits since the last one span the revision interval (at a
 * save), and when the last editor leaves. A save that fails while the database is away keeps the
 * document in memory (Hocuspocus unloads nothing while its save runs) and is tried again.
 */
function persistence(ctx: AppContext, reads: Limiter, writer: ReturnType<typeof collabWriter>): Extension {
  const unrevised = new Map<string, Unrevised>();
  const intervalMs = ctx.env.DOCUMENT_REVISION_MINUTES * 60_000;
  return {
    extensionName: 'cabinet-persistence',
    async onLoadDocument({ documentName, document }) {
      const state = await reads(() => findDocumentState(ctx.db, documentName));
      if (state) Y.applyUpdate(document, state);
      return document;
    },
    async onChange({ documentName, context }) {
      const by = (context as Partial<CollabContext>).actor?.user.id;
      if (!by) return;
      const pending = unrevised.get(documentName) ?? { since: Date.now(), authors: new Set<string>() };
      pending.authors.add(by);
      unrevised.set(documentName, pending);
    },
    async onStoreDocument({ documentName, document, context }) {
      const by = (context as Partial<CollabContext>).actor?.user.id ?? null;
      await writer.persist(`saving document ${documentName}`, async () => {
        // Read at each attempt: a retry stores the document as it is by then.
        const state = Y.encodeStateAsUpdate(document);
        const text = documentText(document);
        const pending = unrevised.get(documentName);
        // Ten minutes (the setting) of editing make a revision; the last editor's leaving makes one in onDisconnect.
        const revise = pending && Date.now() - pending.since >= intervalMs;
        // Taken before anything is awaited: edits arriving meanwhile start the next revision's tally.
        if (revise) unrevised.delete(documentName);
        try {
          await inTransaction(ctx.db, async (tx) => {
            const item = await saveDocumentState(tx, documentName, state, text, by);
            if (revise && item) await insertRevision(tx, { itemId: documentName, state, text, authorIds: [...pending.authors] });
            if (item) await publish(tx, item.workspace_id, { type: 'item.updated', itemId: documentName, parentIds: item.parent_id ? [item.parent_id] : [] });
          });
        } catch (error) {
          if (revise) restore(documentName, pending);
          throw error;
        }
      });
    },
    // The last editor left: the edits since the last revision make one, written in the background
    // so the document's last save and unloading do not wait for it.
    async onDisconnect({ documentName, document, clientsCount }) {
      const pending = unrevised.get(documentName);
      if (clientsCount > 0 || !pending) return;
      unrevised.delete(documentName);
      const revision = { itemId: documentName, state: Y.encodeStateAsUpdate(document), text: documentText(document), authorIds: [...pending.authors] };
      void writer.persist(`recording a revision of ${documentName}`, async () => void (await insertRevision(ctx.db, revision))).then((written) => written || restore(documentName, pending));
    },
  };

  /** Puts back a tally whose revision could not be written, merged with any edits since. */
  function restore(name: string, pending: Unrevised) {
    const now = unrevised.get(name);
    unrevised.set(name, { since: Math.min(pending.since, now?.since ?? Infinity), authors: new Set([...pending.authors, ...(now?.authors ?? [])]) });
  }
}

/**
 * Redis between instances. Hocuspocus does not wait for some of its hooks, so a failed publish
 * would reject with nobody to hear it: failures are logged here instead. A store whose Redis lock
 * cannot be taken because Redis is away goes ahead (the database matters more than storing once);
 * one whose lock another instance holds is left to that instance, as Hocuspocus intends.
 */
function redisExtension(url: string, prefix: string, log: FastifyBaseLogger): Extension {
  // No ready check: after a reconnect its INFO can follow the SUBSCRIBEs queued meanwhile, which
  // Redis refuses in subscriber mode, failing the connection again (seen under load in CI).
  const client = () => new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: false }).on('error', () => {
    // ioredis reconnects by itself; the error is the connection's, not a request's.
  });
  // Answers what a publish answers when nobody heard it.
  const logged = (what: string) => (error: unknown) => {
    log.warn({ err: error }, `collaboration through Redis: ${what} failed`);
    return 0;
  };
  class LoggedRedis extends Redis {
    override onChange(data: onChangePayload) {
      return super.onChange(data).catch(logged('publishing a change'));
    }
    override onAwarenessUpdate(data: onAwarenessUpdatePayload) {
      return super.onAwarenessUpdate(data).catch(logged('publishing presence'));
    }
    override beforeBroadcastStateless(data: beforeBroadcastStatelessPayload) {
      return super.beforeBroadcastStateless(data).catch(logged('publishing a message'));
    }
    override async onStoreDocument(data: onStoreDocumentPayload) {
      try {
        await super.onStoreDocument(data);
      } catch (error) {
        // An empty message: another instance holds the lock and stores the document.
        if (!(error as Error).message) throw error;
        logged('locking a document to store it')(error);
      }
    }
  }
  return new LoggedRedis({ prefix: `${prefix}:collab`, createClient: client });
}

export interface Collab {
  /** Takes the HTTP upgrade if it is for the collaboration socket; false when it is not. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The document as it stands in memory, when someone has it open on this instance. */
  openDocument(name: string): Y.Doc | undefined;
  /** Changes a document as one more editor would: everyone with it open sees the change, and it is saved. */
  edit(name: string, change: (document: Y.Doc) => void): Promise<void>;
  /** Saves what is open and closes every socket. */
  close(): Promise<void>;
}

/** Real-time editing over the Yjs protocol (Hocuspocus) on `/collab`, beside the HTTP API. */
export function createCollab(ctx: AppContext, socketActor: SocketActor, hub: EventHub, log: FastifyBaseLogger): Collab {
  // Half the pool at most for reads and half for writes, so the HTTP API always finds connections.
  const share = Math.max(1, Math.floor(ctx.env.DATABASE_POOL_SIZE / 2));
  const reads = limiter(share);
  const writer = collabWriter(limiter(share), log);
  const recheck = accessChecker(ctx, reads);
  const authenticated = new WeakSet<IncomingMessage>();
  const hocuspocus = new Hocuspocus({
    quiet: true,
    debounce: 2000,
    maxDebounce: 10_000,
    // With Redis, instances hand each other every change and presence, and only one stores a
    // document at a time (Redis's lock comes before persistence, which it skips when another holds it).
    extensions: [authorization(ctx, socketActor, reads, recheck, authenticated), ...(ctx.env.REDIS_URL ? [redisExtension(ctx.env.REDIS_URL, ctx.env.REDIS_PREFIX, log)] : []), persistence(ctx, reads, writer)],
  });
  // Access announced as changed (on any instance): the connections it may concern look again now.
  const stopWatching = hub.onAccessChange(({ w, u }) => {
    for (const document of hocuspocus.documents.values()) {
      for (const connection of document.getConnections()) {
        const c = connection.context as Partial<CollabContext>;
        if (c.actor && (w === null || c.workspaceId === w) && (u === null || c.actor.user.id === u)) void recheck(connection);
      }
    }
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // The HTTP server waits for upgraded sockets when it closes: they are ended here.
  const upgraded = new Set<Duplex>();
  const openPerAddress = new Map<string, number>();
  return {
    handleUpgrade(req, socket, head) {
      if (new URL(req.url ?? '/', 'http://cabinet').pathname !== COLLAB_PATH) return false;
      // A cap per address: one caller cannot hold every file descriptor the server has.
      const address = clientAddress(req, ctx.env.TRUST_PROXY);
      const open = openPerAddress.get(address) ?? 0;
      if (open >= ctx.env.COLLAB_SOCKETS_PER_ADDRESS) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return true;
      }
      openPerAddress.set(address, open + 1);
      upgraded.add(socket);
      socket.once('close', () => {
        upgraded.delete(socket);
        const left = (openPerAddress.get(address) ?? 1) - 1;
        if (left > 0) openPerAddress.set(address, left);
        else openPerAddress.delete(address);
      });
      sockets.handleUpgrade(req, socket, head, (ws) => {
        // A frame over the size cap (or a broken one) is an error on this socket alone: it ends it,
        // and must not reach the process as an unhandled error.
        ws.on('error', () => ws.terminate());
        const deadline = setTimeout(() => {
          if (!authenticated.has(req)) ws.close(UNAUTHENTICATED_CLOSE_CODE, 'unauthenticated');
        }, AUTHENTICATION_DEADLINE_MS);
        deadline.unref();
        ws.once('close', () => clearTimeout(deadline));
        hocuspocus.handleConnection(ws, req);
      });
      return true;
    },
    openDocument: (name) => hocuspocus.documents.get(name),
    async edit(name, change) {
      const connection = await hocuspocus.openDirectConnection(name, {});
      try {
        await connection.transact(change);
      } finally {
        await connection.disconnect();
      }
    },
    async close() {
      stopWatching();
      writer.stop();
      await Promise.all([...hocuspocus.documents.values()].map((document) => hocuspocus.storeDocumentHooks(document, { clientsCount: 0, context: {}, document, documentName: document.name, instance: hocuspocus, requestHeaders: {}, requestParameters: new URLSearchParams(), socketId: 'server' }, true)));
      hocuspocus.closeConnections();
      // Extensions let go of what they hold (Redis connections).
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
