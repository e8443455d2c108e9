import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ZId } from '@cabinet/contracts';
import { Redis } from '@hocuspocus/extension-redis';
import { Hocuspocus, type Extension } from '@hocuspocus/server';
import { Redis as IORedis } from 'ioredis';
import { WebSocketServer } from 'ws';
import { documentText } from '@cabinet/doc-schema/server';
import { carriesWellFormedUpdate } from './well-formed.ts';
import * as Y from 'yjs';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../modules/auth/actor.ts';
import { publish } from '../modules/events/events.ts';
import { findDocumentState, insertRevision, saveDocumentState } from '../modules/documents/documents.repo.ts';
import { RANK, requireItem } from '../modules/items/items.policy.ts';
import { inTransaction } from '../db/client.ts';

export const COLLAB_PATH = '/collab';
/** A message bigger than this closes the socket: no edit is this large, a paste of a book included. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export type SocketActor = (req: { method: string; headers: IncomingMessage['headers']; ip: string }, token: string) => Promise<Actor>;

interface CollabContext {
  actor: Actor;
  /** The caller again, from the credentials the socket opened with (a revoked session or token fails). */
  reauthenticate: () => Promise<Actor>;
  /** When the caller and their access were last looked up. */
  checkedAt: number;
}

/** The close code for a malformed update (4000–4999 are the application's). */
const INVALID_UPDATE_CLOSE_CODE = 4400;

/** Access is looked up again on an update at most this often: a revoked share takes effect within seconds, not per keystroke. */
const RECHECK_MS = 5_000;

/**
 * Who may open a document: the socket's caller (API token, or the session cookie from Cabinet's
 * own origin) must see the document item; below editor the connection is read-only, so the
 * server drops every update it sends.
 */
function authorization(ctx: AppContext, socketActor: SocketActor): Extension {
  return {
    extensionName: 'cabinet-authorization',
    async onAuthenticate({ token, documentName, request, connectionConfig }) {
      try {
        if (!ZId.safeParse(documentName).success) throw new AppError('not_found');
        const reauthenticate = () => socketActor({ method: 'GET', headers: request.headers, ip: request.socket.remoteAddress ?? '' }, token);
        const actor = await reauthenticate();
        const { item, role } = await requireItem(ctx.db, actor, documentName, 'view');
        if (item.kind !== 'document') throw new AppError('not_found');
        connectionConfig.readOnly = RANK[role] < RANK.editor || !actor.scopes.includes('write');
        return { actor, reauthenticate, checkedAt: Date.now() } satisfies CollabContext;
      } catch (error) {
        // Hocuspocus refuses the socket ("permission denied") and tells the client this reason.
        const code = error instanceof AppError ? error.code : 'internal';
        throw Object.assign(new Error(code), { reason: code });
      }
    },
    // Every message passes here: access that was withdrawn or lowered since the connection opened
    // closes it or makes it read-only before the message is applied.
    async beforeHandleMessage({ connection, context, documentName, update }) {
      // A change that is not a Yjs update closes the socket before anything reads it.
      if (!carriesWellFormedUpdate(update)) throw Object.assign(new Error('invalid_update'), { code: INVALID_UPDATE_CLOSE_CODE, reason: 'invalid_update' });
      const c = context as CollabContext;
      if (Date.now() - c.checkedAt < RECHECK_MS) return;
      c.checkedAt = Date.now();
      const access = await c
        .reauthenticate()
        .then((actor) => requireItem(ctx.db, (c.actor = actor), documentName, 'view'))
        .catch(() => undefined);
      if (!access) throw Object.assign(new Error('not_found'), { reason: 'not_found' });
      connection.readOnly = RANK[access.role] < RANK.editor || !c.actor.scopes.includes('write');
    },
  };
}

/** Edits since a document's last revision: since when, and by whom. */
interface Unrevised {
  since: number;
  authors: Set<string>;
}

/**
 * Documents load from and save to PostgreSQL: the whole state as one Yjs update, and its plain
 * text. A revision is recorded once the edits since the last one span the revision interval (at a
 * save), and when the last editor leaves.
 */
function persistence(ctx: AppContext): Extension {
  const unrevised = new Map<string, Unrevised>();
  const intervalMs = ctx.env.DOCUMENT_REVISION_MINUTES * 60_000;
  return {
    extensionName: 'cabinet-persistence',
    async onLoadDocument({ documentName, document }) {
      const state = await findDocumentState(ctx.db, documentName);
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
    },
    // The last editor left: the edits since the last revision make one now.
    async onDisconnect({ documentName, document, clientsCount }) {
      const pending = unrevised.get(documentName);
      if (clientsCount > 0 || !pending) return;
      unrevised.delete(documentName);
      const state = Y.encodeStateAsUpdate(document);
      try {
        await insertRevision(ctx.db, { itemId: documentName, state, text: documentText(document), authorIds: [...pending.authors] });
      } catch (error) {
        restore(documentName, pending);
        throw error;
      }
    },
  };

  /** Puts back a tally whose revision could not be written, merged with any edits since. */
  function restore(name: string, pending: Unrevised) {
    const now = unrevised.get(name);
    unrevised.set(name, { since: Math.min(pending.since, now?.since ?? Infinity), authors: new Set([...pending.authors, ...(now?.authors ?? [])]) });
  }
}

function redisExtension(url: string, prefix: string): Extension {
  // No ready check: after a reconnect its INFO can follow the SUBSCRIBEs queued meanwhile, which
  // Redis refuses in subscriber mode, failing the connection again (seen under load in CI).
  const client = () => new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: false }).on('error', () => {
    // ioredis reconnects by itself; the error is the connection's, not a request's.
  });
  return new Redis({ prefix: `${prefix}:collab`, createClient: client });
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
export function createCollab(ctx: AppContext, socketActor: SocketActor): Collab {
  const hocuspocus = new Hocuspocus({
    quiet: true,
    debounce: 2000,
    maxDebounce: 10_000,
    // With Redis, instances hand each other every change and presence, and only one stores a
    // document at a time (Redis's lock comes before persistence, which it skips when another holds it).
    extensions: [authorization(ctx, socketActor), ...(ctx.env.REDIS_URL ? [redisExtension(ctx.env.REDIS_URL, ctx.env.REDIS_PREFIX)] : []), persistence(ctx)],
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // The HTTP server waits for upgraded sockets when it closes: they are ended here.
  const upgraded = new Set<Duplex>();
  return {
    handleUpgrade(req, socket, head) {
      if (new URL(req.url ?? '/', 'http://cabinet').pathname !== COLLAB_PATH) return false;
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      sockets.handleUpgrade(req, socket, head, (ws) => {
        // A frame over the size cap (or a broken one) is an error on this socket alone: it ends it,
        // and must not reach the process as an unhandled error.
        ws.on('error', () => ws.terminate());
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
      await Promise.all([...hocuspocus.documents.values()].map((document) => hocuspocus.storeDocumentHooks(document, { clientsCount: 0, context: {}, document, documentName: document.name, instance: hocuspocus, requestHeaders: {}, requestParameters: new URLSearchParams(), socketId: 'server' }, true)));
      hocuspocus.closeConnections();
      // Extensions let go of what they hold (Redis connections).
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
