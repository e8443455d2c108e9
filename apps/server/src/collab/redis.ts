import { Redis } from '@hocuspocus/extension-redis';
import {
  IncomingMessage,
  MessageType,
  OutgoingMessage,
  type beforeBroadcastStatelessPayload,
  type Document,
  type Extension,
  type onAwarenessUpdatePayload,
  type onChangePayload,
  type onStoreDocumentPayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import { Redis as IORedis } from 'ioredis';
import * as Y from 'yjs';

/**
 * Redis between instances (ADR 0014): they hand each other every change and presence, and only
 * one stores a document at a time. Hocuspocus does not wait for some of its hooks, so a failed
 * publish would reject with nobody to hear it: failures are logged here instead. A store whose
 * Redis lock cannot be taken because Redis is away goes ahead (the database matters more than
 * storing once); one whose lock another instance holds is left to that instance, as Hocuspocus intends.
 */
/** The first step of the Yjs sync protocol: the sender's state vector (what it has). */
const SYNC_STEP_1 = 0;
/** How long an edit made on the server waits for the other instances' copies of its document before it goes ahead. */
const CATCH_UP_MS = 3_000;

export interface CollabRedis extends Extension {
  /**
   * Resolves once this copy holds everything each other instance subscribed to the document had
   * when it answered (its state vector, then its step 2, in reply to the step 1 sent here), or
   * after CATCH_UP_MS. A document this instance has just loaded from the database
   * lacks what the editors on other instances have not stored yet: a change computed from it
   * (a restore, which deletes everything it sees) would leave that out.
   */
  catchUp(documentName: string, document: Document): Promise<void>;
}

export function redisExtension(url: string, prefix: string, log: FastifyBaseLogger): CollabRedis {
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
    catchUp(documentName: string, document: Document): Promise<void> {
      const channel = `${this.configuration.prefix}:${documentName}`;
      const self = this.configuration.identifier;
      // Each other instance's whole state (its state vector, sent before its step 2 whenever it answers a step 1, ours or
      // anyone's), as last heard after the question went out; it has answered once this copy holds all of it.
      const heard = new Map<string, Map<number, number>>();
      const answered = new Set<string>();
      let expected = Number.POSITIVE_INFINITY;
      const holds = (state: Map<number, number>) => {
        const own = Y.decodeStateVector(Y.encodeStateVector(document));
        return [...state].every(([client, clock]) => (own.get(client) ?? 0) >= clock);
      };
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.sub.off('messageBuffer', onMessage);
          resolve();
        };
        // Registered after the extension's own listener: a step seen here has been applied to the document already.
        const onMessage = (from: Buffer, data: Buffer) => {
          if (from.toString() !== channel) return;
          try {
            const length = data[0]!;
            const identifier = data.toString('utf-8', 1, length + 1);
            if (identifier === self) return;
            const message = new IncomingMessage(data.subarray(length + 1));
            if (message.readVarString() !== documentName) return;
            if (message.readVarUint() === MessageType.SyncReply && message.readVarUint() === SYNC_STEP_1) {
              heard.set(identifier, Y.decodeStateVector(message.readVarUint8Array()));
            }
          } catch {
            return; // Not a message of the protocol: nobody's answer.
          }
          for (const [identifier, state] of heard) if (!answered.has(identifier) && holds(state)) answered.add(identifier);
          if (answered.size >= expected) done();
        };
        const timer = setTimeout(() => {
          log.warn({ documentName, answered: answered.size, expected }, 'collaboration through Redis: other instances did not answer in time');
          done();
        }, CATCH_UP_MS);
        this.sub.on('messageBuffer', onMessage);
        const ask = new OutgoingMessage(documentName).createSyncMessage().writeFirstSyncStepFor(document);
        this.pub.publish(channel, Buffer.concat([this.messagePrefix, Buffer.from(ask.toUint8Array())])).then(
          (subscribers) => {
            // Every subscriber but this instance answers.
            expected = subscribers - 1;
            if (answered.size >= expected) done();
          },
          (error: unknown) => {
            logged('asking other instances for a document')(error);
            done();
          },
        );
      });
    }
  }
  return new LoggedRedis({ prefix: `${prefix}:collab`, createClient: client });
}
