import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocketServer } from 'ws';
import type * as Y from 'yjs';
import type { AppContext } from '../context.ts';
import type { Actor } from '../infra/http/actor.ts';
import { clientAddress, rateKey, trustHop } from '../lib/client-address.ts';
import { limiter } from '../lib/limiter.ts';
import type { EventHub } from '../modules/events/index.ts';
import { accessChecker, admission, authorization, type CollabContext, type SocketActor } from './authorization.ts';
import { collabWriter, persistence } from './persistence.ts';
import { wellFormedUpdates } from './well-formed.ts';

export type { SocketActor };

/*
 * The collaboration server, wired from its parts: well-formed updates only, authorization (who may
 * open a document, read-only or not), Redis between instances, persistence (through the documents
 * service); access notices from the database make open connections look again (ADR 0018).
 */

export const COLLAB_PATH = '/collab';
/** A message bigger than this closes the socket: no edit is this large, a paste of a book included. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** The close code for a socket that did not authenticate in time. */
const UNAUTHENTICATED_CLOSE_CODE = 4401;
/** A socket that has not asked to open a document by then is closed: otherwise it would hold its file descriptor for ever. */
const AUTHENTICATION_DEADLINE_MS = 10_000;
/** How long a socket closed at its deadline is given to answer the close before its connection is cut. */
const CLOSE_GRACE_MS = 1_000;

export interface Collab {
  /** Takes the HTTP upgrade if it is for the collaboration socket; false when it is not. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The document as it stands in memory, when someone has it open on this instance. */
  openDocument(name: string): Y.Doc | undefined;
  /** Changes a document as `by` editing it would: everyone with it open sees the change; the caller stores it. */
  edit(name: string, change: (document: Y.Doc) => void, by: Actor): Promise<void>;
  /** Saves what is open and closes every socket. */
  close(): Promise<void>;
  /** Sockets open on this instance, and the documents held in memory for them. */
  stats(): { sockets: number; documents: number };
}

/** Real-time editing over the Yjs protocol (Hocuspocus) on `/collab`, beside the HTTP API. */
export async function createCollab(ctx: AppContext, socketActor: SocketActor, hub: EventHub, log: FastifyBaseLogger): Promise<Collab> {
  // Half the pool at most for reads and half for writes, so the HTTP API always finds connections.
  const share = Math.max(1, Math.floor(ctx.env.DATABASE_POOL_SIZE / 2));
  const reads = limiter(share);
  const writer = collabWriter(limiter(share), log);
  const recheck = accessChecker(ctx, reads);
  const admitted = admission();
  // Redis's client is loaded only by instances that share documents through it.
  const redis = ctx.env.REDIS_URL ? (await import('./redis.ts')).redisExtension(ctx.env.REDIS_URL, ctx.env.REDIS_PREFIX, log) : undefined;
  const hocuspocus = new Hocuspocus({
    quiet: true,
    debounce: 2000,
    maxDebounce: 10_000,
    // In this order: a malformed update closes the socket before access is looked at; with Redis,
    // instances hand each other every change and presence, and only one stores a document at a
    // time (Redis's lock comes before persistence, which it skips when another holds it).
    extensions: [wellFormedUpdates, authorization(ctx, socketActor, reads, recheck, admitted), ...(redis ? [redis] : []), persistence(ctx, reads, writer)],
  });
  // Access announced as changed (on any instance): the connections it may concern look again now.
  const stopWatching = hub.onAccessChange(({ w, u }) => {
    for (const document of hocuspocus.documents.values()) {
      for (const connection of document.getConnections()) {
        const c = connection.context as Partial<CollabContext>;
        if (c.actor && (w === null || c.workspaceId === w) && (u === null || c.actor.user.id === u)) void recheck(connection, true);
      }
    }
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // The HTTP server waits for upgraded sockets when it closes: they are ended here.
  const upgraded = new Set<Duplex>();
  const openPerAddress = new Map<string, number>();
  const trust = trustHop(ctx.env.TRUST_PROXY);
  return {
    handleUpgrade(req, socket, head) {
      if (new URL(req.url ?? '/', 'http://cabinet').pathname !== COLLAB_PATH) return false;
      // A cap per address: one caller cannot hold every file descriptor the server has.
      const address = rateKey(clientAddress(req, trust));
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
        let ending: NodeJS.Timeout | undefined;
        let deadline: NodeJS.Timeout;
        const atDeadline = () => {
          const state = admitted.state(req);
          if (state === 'opened') return;
          // Asked and still being looked at (many editors coming back at once, a slow database): the
          // client did its part in time; closing it would only make it come back and ask again.
          if (state === 'asking') {
            deadline = setTimeout(atDeadline, AUTHENTICATION_DEADLINE_MS);
            deadline.unref();
            return;
          }
          ws.close(UNAUTHENTICATED_CLOSE_CODE, 'unauthenticated');
          // A client that never answers the close frame would hold the connection for ws's own 30 s.
          ending = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
          ending.unref();
        };
        deadline = setTimeout(atDeadline, AUTHENTICATION_DEADLINE_MS);
        deadline.unref();
        ws.once('close', () => {
          clearTimeout(deadline);
          clearTimeout(ending);
        });
        hocuspocus.handleConnection(ws, req);
      });
      return true;
    },
    openDocument: (name) => hocuspocus.documents.get(name),
    stats: () => ({ sockets: hocuspocus.getConnectionsCount(), documents: hocuspocus.getDocumentsCount() }),
    async edit(name, change, by) {
      // The caller's edit, which they store themselves (with its revision, in one transaction).
      const connection = await hocuspocus.openDirectConnection(name, { actor: by, storedByCaller: true } satisfies Partial<CollabContext>);
      try {
        // What editors on other instances wrote and have not stored yet is part of what the change sees.
        if (redis && connection.document) await redis.catchUp(name, connection.document);
        await connection.transact(change);
      } finally {
        await connection.disconnect();
      }
    },
    async close() {
      stopWatching();
      writer.stop();
      await Promise.all(
        [...hocuspocus.documents.values()].map((document) =>
          hocuspocus.storeDocumentHooks(
            document,
            {
              clientsCount: 0,
              context: {},
              document,
              documentName: document.name,
              instance: hocuspocus,
              requestHeaders: {},
              requestParameters: new URLSearchParams(),
              socketId: 'server',
            },
            true,
          ),
        ),
      );
      hocuspocus.closeConnections();
      // Extensions let go of what they hold (Redis connections).
      await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}
