import type { IncomingMessage } from 'node:http';
import { ZId } from '@cabinet/contracts';
import type { Connection, Extension } from '@hocuspocus/server';
import type { AppContext } from '../context.ts';
import { AppError, isDatabaseUnavailable } from '../errors.ts';
import { clientAddress, trustHop } from '../lib/client-address.ts';
import type { Limiter } from '../lib/limiter.ts';
import type { Actor } from '../infra/http/actor.ts';
import { requireItem, upsertVisit } from '../modules/items/index.ts';

/*
 * Who may open a document on the collaboration socket and whether the connection may write: the
 * policy module decides (requireItem), this file only asks it, at the opening and again while the
 * connection lasts.
 */

export type SocketActor = (req: { method: string; headers: IncomingMessage['headers']; ip: string }, token: string) => Promise<Actor>;

/** What a connection remembers of its caller (Hocuspocus's connection context). */
export interface CollabContext {
  actor: Actor;
  /** A change made on the server whose caller stores it themselves (a restore, with its revision): saves through this connection skip it. */
  storedByCaller?: true;
  /** The caller again, from the credentials the socket opened with (a revoked session or token fails). */
  reauthenticate: () => Promise<Actor>;
  /** The document's workspace: a change of access there makes this connection look again. */
  workspaceId: string;
  /** When the caller and their access were last looked up. */
  checkedAt: number;
  /** A look in progress, and whether another must follow it (access changed again meanwhile). */
  checking?: Promise<void> | undefined;
  checkAgain?: boolean;
  /** The look in progress follows an announced change of access: messages wait for its verdict. */
  urgent?: boolean;
  /** Why the connection was closed when access went (its messages are refused from then on). */
  revoked?: string;
}

/** The close code for a caller whose access (session, token, account, share, the item itself) went. */
const ACCESS_GONE_CLOSE_CODE = 4403;

/**
 * Access is looked up again on an update at most this often. Every change of access is announced
 * (AccessChange) and looked at at once, messages waiting for the verdict — access ending by the
 * clock too (a share, session or token expiring: the `access.expire` job, ADR 0050), and everyone
 * looks again after an instance lost its LISTEN. This look, in the background while messages go
 * on, is only a net for a notice lost all the same; each costs two statements, so it is rare (at
 * 1,000 documents being edited, every five seconds took most of PGlite's thread).
 */
const RECHECK_MS = 60_000;
/** A look the database did not answer is tried again after this (as urgently as it was). */
const RETRY_MS = 5_000;

/**
 * Who may keep a document open: looks again at the caller and their access. Access gone closes
 * the connection with its reason; below editor (or a token without `write`) the connection becomes
 * read-only, and the client is told. A database that does not answer is no verdict: the connection
 * stays as it was and is looked at again shortly.
 */
export function accessChecker(ctx: AppContext, reads: Limiter) {
  /** `urgent`: access was announced to change; messages wait for this look (and any in progress) to end. */
  return function recheck(connection: Connection, urgent = false): Promise<void> {
    const c = connection.context as CollabContext;
    if (urgent) c.urgent = true;
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
          // Without the edit ability (below editor, or a token that may only read) the connection is read-only.
          const readOnly = !abilities.edit;
          if (readOnly !== connection.readOnly) {
            connection.readOnly = readOnly;
            connection.sendStateless(JSON.stringify({ type: 'access', readOnly }));
          }
        } catch (error) {
          if (!(error instanceof AppError)) {
            c.checkedAt = 0;
            // Looked at again as urgently as this look was.
            const urgently = c.urgent === true;
            setTimeout(() => void (connection.document.hasConnection(connection) && recheck(connection, urgently)), RETRY_MS).unref();
            return;
          }
          c.revoked = error.code;
          connection.close({ code: ACCESS_GONE_CLOSE_CODE, reason: error.code });
          return;
        }
      } while (c.checkAgain);
    };
    c.checking = look().finally(() => {
      c.checking = undefined;
      c.urgent = false;
    });
    return c.checking;
  };
}

/**
 * Where each socket stands with its authentication: a document opened on it, or an authentication
 * still being looked at (the client has done its part; a busy database is the server's delay, not
 * the client's), or neither. A socket with neither at its deadline is closed (collab.ts).
 */
export interface Admission {
  /** An authentication begins on the socket of `request`: call what it returns when it ends, with whether it opened the document. */
  asked(request: IncomingMessage): (opened: boolean) => void;
  state(request: IncomingMessage): 'opened' | 'asking' | 'silent';
}

export function admission(): Admission {
  const opened = new WeakSet<IncomingMessage>();
  const asking = new WeakMap<IncomingMessage, number>();
  return {
    asked(request) {
      asking.set(request, (asking.get(request) ?? 0) + 1);
      let ended = false;
      return (success) => {
        if (success) opened.add(request);
        if (ended) return;
        ended = true;
        const left = (asking.get(request) ?? 1) - 1;
        if (left > 0) asking.set(request, left);
        else asking.delete(request);
      };
    },
    state: (request) => (opened.has(request) ? 'opened' : asking.has(request) ? 'asking' : 'silent'),
  };
}

/**
 * Who may open a document: the socket's caller (API token, or the session cookie from Cabinet's
 * own origin) must see the document item; below editor the connection is read-only. Every message
 * then passes here: access withdrawn or lowered since it was last looked at closes the connection
 * or makes it read-only before the message is applied.
 */
export function authorization(
  ctx: AppContext,
  socketActor: SocketActor,
  reads: Limiter,
  recheck: (connection: Connection) => Promise<void>,
  admission: Admission,
): Extension {
  // The caller's address as the HTTP routes take it (TRUST_PROXY).
  const trust = trustHop(ctx.env.TRUST_PROXY);
  return {
    extensionName: 'cabinet-authorization',
    async onAuthenticate({ token, documentName, request, connectionConfig }) {
      const done = admission.asked(request);
      try {
        if (!ZId.safeParse(documentName).success) throw new AppError('not_found');
        const reauthenticate = () => socketActor({ method: 'GET', headers: request.headers, ip: clientAddress(request, trust) }, token);
        const { actor, item, abilities } = await reads(async () => {
          const actor = await reauthenticate();
          return { actor, ...(await requireItem(ctx.db, actor, documentName, 'view')) };
        });
        if (item.kind !== 'document') throw new AppError('not_found');
        // Opening a document is a visit: it goes to the top of the person's Recent.
        await reads(() => upsertVisit(ctx.db, actor.user.id, item.id));
        connectionConfig.readOnly = !abilities.edit;
        done(true);
        return { actor, reauthenticate, workspaceId: item.workspace_id, checkedAt: Date.now() } satisfies CollabContext;
      } catch (error) {
        // Hocuspocus refuses the socket ("permission denied") and tells the client this reason.
        const code = error instanceof AppError ? error.code : isDatabaseUnavailable(error) ? 'database_unavailable' : 'internal';
        throw Object.assign(new Error(code), { reason: code });
      } finally {
        done(false);
      }
    },
    async beforeHandleMessage({ connection, context }) {
      const c = context as CollabContext;
      // An announced change is waited for; the periodic look runs beside the message (an edit never
      // waits on the database for it: it held one edit in twenty back, two editors typing).
      if (c.checking && c.urgent) await c.checking;
      else if (!c.checking && Date.now() - c.checkedAt >= RECHECK_MS) void recheck(connection);
      if (c.revoked) throw Object.assign(new Error(c.revoked), { code: ACCESS_GONE_CLOSE_CODE, reason: c.revoked });
    },
  };
}
