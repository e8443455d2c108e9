import { Redis } from '@hocuspocus/extension-redis';
import type { beforeBroadcastStatelessPayload, Extension, onAwarenessUpdatePayload, onChangePayload, onStoreDocumentPayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { Redis as IORedis } from 'ioredis';

/**
 * Redis between instances (ADR 0014): they hand each other every change and presence, and only
 * one stores a document at a time. Hocuspocus does not wait for some of its hooks, so a failed
 * publish would reject with nobody to hear it: failures are logged here instead. A store whose
 * Redis lock cannot be taken because Redis is away goes ahead (the database matters more than
 * storing once); one whose lock another instance holds is left to that instance, as Hocuspocus intends.
 */
export function redisExtension(url: string, prefix: string, log: FastifyBaseLogger): Extension {
  // No ready check: after a reconnect its INFO can follow the SUBSCRIBEs queued meanwhile, which
  // Redis refuses in subscriber mode, failing the connection again (seen under load in CI).
  const client = () =>
    new IORedis(url, { maxRetriesPerRequest: null, enableReadyCheck: false }).on('error', () => {
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
