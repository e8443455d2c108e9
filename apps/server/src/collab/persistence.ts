import type { Extension } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import * as Y from 'yjs';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable } from '../errors.ts';
import type { Actor } from '../infra/http/actor.ts';
import type { Limiter } from '../lib/limiter.ts';
import { documentContent, loadDocumentState, recordRevision, storeDocument } from '../modules/documents/index.ts';
import type { CollabContext } from './authorization.ts';

/** Edits since a document's last revision: since when, and by whom. */
interface Unrevised {
  since: number;
  authors: Set<string>;
}

/** Waits before another attempt at a write while the database is away: 0.5 s, 1 s, 2 s … at most this. */
const MAX_RETRY_DELAY_MS = 15_000;

/** SQLSTATE class 40 (a deadlock, a serialization failure): the same write succeeds when tried again. */
const worthRetrying = (error: unknown) => isDatabaseUnavailable(error) || /^40/.test((error as { code?: string } | undefined)?.code ?? '');

export type CollabWriter = ReturnType<typeof collabWriter>;

/**
 * Collaboration writes to the database: at most a few at once (200 editors leaving together queue
 * here instead of all waiting for the pool), each tried again with growing pauses while the
 * database is away, so what is in memory is saved once it returns. Nothing here rejects: a write
 * that cannot succeed (the document was deleted) is logged and given up.
 */
export function collabWriter(writes: Limiter, log: FastifyBaseLogger) {
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
 * Documents load and save through the documents service, which alone writes their stored state
 * (ADR 0025): the whole state as one Yjs update, and its plain text. A revision is recorded once
 * the edits since the last one span the revision interval (at a save), and when the last editor
 * leaves. A save that fails while the database is away keeps the document in memory (Hocuspocus
 * unloads nothing while its save runs) and is tried again.
 */
export function persistence(ctx: AppContext, reads: Limiter, writer: CollabWriter): Extension {
  const unrevised = new Map<string, Unrevised>();
  // Who last changed each open document: a save with no one behind it (the server shutting down,
  // a debounced save after the editor left) is still theirs.
  const lastEditors = new Map<string, Actor>();
  const intervalMs = ctx.env.DOCUMENT_REVISION_MINUTES * 60_000;
  return {
    extensionName: 'cabinet-persistence',
    async onLoadDocument({ documentName, document }) {
      const state = await reads(() => loadDocumentState(ctx.db, documentName));
      if (state) Y.applyUpdate(document, state);
      return document;
    },
    async onChange({ documentName, context }) {
      const actor = (context as Partial<CollabContext> | undefined)?.actor;
      if (!actor) return;
      lastEditors.set(documentName, actor);
      const by = actor.user.id;
      const pending = unrevised.get(documentName) ?? { since: Date.now(), authors: new Set<string>() };
      pending.authors.add(by);
      unrevised.set(documentName, pending);
    },
    async onStoreDocument({ documentName, document, context }) {
      if ((context as Partial<CollabContext> | undefined)?.storedByCaller) return;
      const by = (context as Partial<CollabContext> | undefined)?.actor ?? lastEditors.get(documentName) ?? null;
      await writer.persist(`saving document ${documentName}`, async () => {
        // Read at each attempt: a retry stores the document as it is by then.
        const content = documentContent(document);
        const pending = unrevised.get(documentName);
        // Ten minutes (the setting) of editing make a revision; the last editor's leaving makes one in onDisconnect.
        const revise = pending && Date.now() - pending.since >= intervalMs ? pending : undefined;
        // Taken before anything is awaited: edits arriving meanwhile start the next revision's tally.
        if (revise) unrevised.delete(documentName);
        try {
          await storeDocument(ctx.db, documentName, content, { by, ...(revise ? { revision: { authorIds: [...revise.authors] } } : {}) });
        } catch (error) {
          if (revise) restore(documentName, revise);
          throw error;
        }
      });
    },
    async afterUnloadDocument({ documentName }) {
      lastEditors.delete(documentName);
    },
    // The last editor left: the edits since the last revision make one, written in the background
    // so the document's last save and unloading do not wait for it.
    async onDisconnect({ documentName, document, clientsCount }) {
      const pending = unrevised.get(documentName);
      if (clientsCount > 0 || !pending) return;
      unrevised.delete(documentName);
      const content = documentContent(document);
      void writer
        .persist(`recording a revision of ${documentName}`, async () => void (await recordRevision(ctx.db, documentName, content, [...pending.authors])))
        .then((written) => written || restore(documentName, pending));
    },
  };

  /** Puts back a tally whose revision could not be written, merged with any edits since. */
  function restore(name: string, pending: Unrevised) {
    const now = unrevised.get(name);
    unrevised.set(name, { since: Math.min(pending.since, now?.since ?? Infinity), authors: new Set([...pending.authors, ...(now?.authors ?? [])]) });
  }
}
