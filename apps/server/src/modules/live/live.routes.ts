import { eventsApi, notificationsApi } from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, isDatabaseUnavailable } from '../../errors.ts';
import { route } from '../../infra/http/route.ts';
import { requireActor, type Actor } from '../../infra/http/actor.ts';
import { visibleItems } from '../items/index.ts';
import { getWorkspace } from '../workspaces/index.ts';
import { activitySince, recentActivity, type EventHub, type HubMessage, type RecordedChange } from '../events/index.ts';

const KEEPALIVE_MS = 25_000;
// More missed changes than this, and the browser is better off fetching what it shows again.
const REPLAY_LIMIT = 500;
// A stream opened afresh replays the changes of this last while: a page reads what it shows just
// before its stream is up, and what changed in between would otherwise stay unseen. The browser
// refetches anything older than its 30 seconds of freshness when shown, so a minute covers it.
const FRESH_REPLAY_MS = 60_000;
// The caller is looked at again this often (and whenever their access is announced to change):
// a session ended, a token revoked, an account disabled or a membership ended closes the stream.
const RECHECK_MS = 60_000;
// A browser that stops reading (its socket's buffer grows past this) is let go: it reconnects and catches up.
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The head of an event stream: never cached, never held back by a proxy. */
const streamHead = (requestId: string) => ({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  connection: 'keep-alive',
  'x-content-type-options': 'nosniff',
  'x-request-id': requestId,
  // Proxies (nginx) must not hold the stream back.
  'x-accel-buffering': 'no',
});

/** One caller's open event stream, as both streams share it. */
interface Stream {
  /** Writes to the browser, unless it has stopped reading: then the stream ends (it reconnects and catches up). */
  send(text: string): void;
  /** Looks at the caller again (signed in as the same person, and `also`): false once they may not watch (the stream then ends) or the database is away. */
  recheck(): Promise<boolean>;
  /** Runs `fn` once the stream stops, whichever way. */
  onStop(fn: () => void): void;
  /** Whether the browser has gone. */
  gone(): boolean;
}

/**
 * Opens an event stream to the signed-in caller of `req`: its head, a keepalive, the caller's
 * notification notices, and the caller looked at again every RECHECK_MS (a session ended, a token
 * revoked, an account disabled: the stream ends). Everything is undone once, when it stops.
 */
function openStream(
  req: FastifyRequest,
  reply: FastifyReply,
  hub: EventHub,
  open: Set<() => void>,
  authenticate: (req: FastifyRequest) => Promise<void>,
  also: (actor: Actor) => Promise<void> = async () => {},
): Stream {
  const actor = requireActor(req);
  reply.hijack();
  // A body sent with the request (a GET has no use for one) is read and dropped: left unread, it holds the socket
  // paused, and a browser that goes away is not seen to have gone until a keepalive fails to be written (up to 50 s of
  // its listeners kept, and a server's close waiting for the stream meanwhile).
  req.raw.resume();
  const res = reply.raw;
  res.writeHead(200, streamHead(req.id));
  const send = (text: string) => {
    if (res.destroyed || res.writableEnded) return;
    res.write(text);
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
  };
  send(`retry: 3000\n: connected\n\n`);
  // Before anything is awaited: a browser gone meanwhile must not leave its listeners behind.
  const undo: Array<() => void> = [];
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const fn of undo) fn();
  };
  res.on('close', stop);
  // Ended here when its caller may no longer watch, and by the server's close, which would otherwise wait for the
  // browser to go (it reconnects, to another instance).
  const end = () => {
    stop();
    res.end();
  };
  open.add(end);
  undo.push(() => open.delete(end));
  const recheck = async (): Promise<boolean> => {
    try {
      await authenticate(req);
      if (!req.actor || req.actor.user.id !== actor.user.id) throw new AppError('unauthenticated');
      await also(req.actor);
      return true;
    } catch (error) {
      // The database away says nothing about the caller: the next look decides.
      if (!isDatabaseUnavailable(error)) end();
      return false;
    }
  };
  // The caller's notifications changed (whichever workspace they concern): the browser reads its count again.
  // No `id:`, so the change a reconnect names stays the last one seen.
  undo.push(
    hub.onNotice((userId) => {
      if (userId === null || userId === actor.user.id) send('event: notifications\ndata: {}\n\n');
    }),
  );
  const keepalive = setInterval(() => send(': keepalive\n\n'), KEEPALIVE_MS);
  keepalive.unref();
  const rechecks = setInterval(() => void recheck(), RECHECK_MS);
  rechecks.unref();
  undo.push(
    () => clearInterval(keepalive),
    () => clearInterval(rechecks),
  );
  return { send, recheck, onStop: (fn) => void (stopped ? fn() : undo.push(fn)), gone: () => res.destroyed };
}

/** `authenticate` is the API's own hook: the stream's caller is authenticated again with the credentials it opened with. */
export async function liveRoutes(app: FastifyInstance, ctx: AppContext, hub: EventHub, authenticate: (req: FastifyRequest) => Promise<void>) {
  // The streams open on this server: a close ends them first, as it stops taking requests.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  route(app, eventsApi.stream, async (req, reply) => {
    const actor = requireActor(req);
    const workspace = await getWorkspace(ctx.db, actor.user, req.params.ws);
    // Looked at again with the caller (a guest made a member hears of groups from then on).
    let abilities = workspace.abilities;
    const stream = openStream(req, reply, hub, open, authenticate, async (caller) => {
      abilities = (await getWorkspace(ctx.db, caller.user, workspace.id)).abilities;
    });
    const { send, recheck } = stream;

    // Events go out in the order they happened. Those that arrive while a check runs wait and
    // are checked together: one query for every folder and item they name, however many.
    // `ready`: the catch-up is over; its id is the change a reconnect names.
    type Message = HubMessage | { ready: number | null };
    let pending: Message[] = [];
    // Held until what the browser missed is read, so that goes first.
    let draining = true;
    // Changes read from the record, which may also arrive live while it is read: sent once
    // (the value says whether it was).
    const replayed = new Map<number, boolean>();
    const drain = async () => {
      if (draining) return;
      draining = true;
      try {
        while (pending.length) {
          const messages = pending;
          pending = [];
          // Changes to who is in the workspace name no item: they are not sent (the activity record keeps them).
          const events = messages.filter((m): m is RecordedChange => m !== 'reset' && !('ready' in m) && !!m.event.itemId);
          const visible = events.length
            ? await visibleItems(ctx.db, actor, [...new Set(events.flatMap((m) => [...m.event.parentIds, m.event.itemId!]))])
            : new Set<string>();
          for (const message of messages) {
            if (message === 'reset') {
              send('event: reset\ndata: {}\n\n');
              continue;
            }
            if ('ready' in message) {
              send(`${message.ready === null ? '' : `id: ${message.ready}\n`}event: ready\ndata: {}\n\n`);
              continue;
            }
            const { id, event, by } = message;
            const sent = replayed.get(id);
            if (sent) continue;
            if (sent === false) replayed.set(id, true);
            // The tab that made a change is named only to the person who made it: to anyone else it would be a handle to hide changes from that tab.
            const clientId = by === actor.user.id ? event.clientId : null;
            if (!event.itemId) {
              // Groups are for whoever sees the workspace's members (not guests): a group's change reaches them all.
              if (event.type.startsWith('group.') && abilities.seeMembers)
                send(`id: ${id}\nevent: group\ndata: ${JSON.stringify({ type: event.type, clientId })}\n\n`);
              continue;
            }
            const parentIds = event.parentIds.filter((p) => visible.has(p));
            const shown = { ...event, parentIds, clientId };
            if (parentIds.length || visible.has(event.itemId)) send(`id: ${id}\nevent: item\ndata: ${JSON.stringify(shown)}\n\n`);
          }
        }
      } catch {
        // A database hiccup drops these events: the browser is told to look again.
        send('event: reset\ndata: {}\n\n');
      } finally {
        draining = false;
      }
    };
    stream.onStop(
      hub.subscribe(workspace.id, (message) => {
        pending.push(message);
        void drain();
      }),
    );
    const unwatch = hub.onAccessChange((change) => {
      if (!((change.u === null || change.u === actor.user.id) && (change.w === null || change.w === workspace.id))) return;
      // The caller's own role in this workspace changed (a membership row of theirs): what they may do
      // changed with it, so the browser reads the workspace and what it shows again.
      const ownRole = change.u === actor.user.id && change.w === workspace.id;
      void recheck().then((still) => {
        if (!still || !ownRole) return;
        pending.push('reset');
        void drain();
      });
    });
    stream.onStop(unwatch);
    // A browser coming back names the last change it saw (EventSource sends Last-Event-ID); a page
    // opening its stream names the `Last-Change-Id` of the answers it shows (`after`, ADR 0046). It
    // gets what it missed from the record, or, when that is too much, a reset. One starting afresh
    // without either gets the last minute's changes. Each is followed by `ready` and the id to come back with.
    const lastSeen = Number(req.headers['last-event-id']);
    const after = Number.isSafeInteger(lastSeen) && lastSeen > 0 ? lastSeen : req.query.after;
    let catchUp: Message[];
    if (after !== undefined) {
      const missed = await activitySince(ctx.db, workspace.id, after, { limit: REPLAY_LIMIT }).catch(() => undefined);
      catchUp = missed ? [...missed, { ready: Math.max(after, ...missed.map((m) => m.id)) }] : ['reset'];
    } else {
      const recent = await recentActivity(ctx.db, workspace.id, { limit: REPLAY_LIMIT + 1, withinMs: FRESH_REPLAY_MS }).catch(() => undefined);
      catchUp = recent && recent.changes.length <= REPLAY_LIMIT ? [...recent.changes, { ready: recent.latestId }] : ['reset'];
    }
    if (stream.gone()) return reply;
    for (const m of catchUp) if (m !== 'reset' && !('ready' in m)) replayed.set(m.id, false);
    pending = [...catchUp, ...pending];
    draining = false;
    void drain();
    return reply;
  });

  // A page that watches no workspace (the account page) hears of the person's notifications alone:
  // the same notices as the workspace's stream, from the hub; no replay, the page has just fetched.
  route(app, notificationsApi.events, async (req, reply) => {
    const actor = requireActor(req);
    const stream = openStream(req, reply, hub, open, authenticate);
    stream.onStop(
      // Only a change to the person (a session ended, the account disabled), or notices missed: a
      // workspace's grants and trash (`u` null) say nothing of whether they may hear their notifications.
      hub.onAccessChange((change) => {
        if (change.u === actor.user.id || (change.u === null && change.w === null)) void stream.recheck();
      }),
    );
    return reply;
  });
}
