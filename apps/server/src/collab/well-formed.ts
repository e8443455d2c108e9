import type { Extension } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';

const SYNC = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/**
 * Whether a message on the socket that carries document changes (sync step 2 or an update) holds
 * a Yjs update that decodes. Other messages (awareness, auth, queries) pass; the protocol handles them.
 */
export function carriesWellFormedUpdate(message: Uint8Array): boolean {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    if (decoding.readVarUint(decoder) !== SYNC) return true;
    const kind = decoding.readVarUint(decoder);
    if (kind !== SYNC_STEP_2 && kind !== SYNC_UPDATE) return true;
    Y.decodeUpdate(decoding.readVarUint8Array(decoder));
    return true;
  } catch {
    return false;
  }
}

/** The close code for a malformed update (4000–4999 are the application's). */
const INVALID_UPDATE_CLOSE_CODE = 4400;

/** A change that is not a Yjs update closes the socket before anything reads it (first of the extensions). */
export const wellFormedUpdates: Extension = {
  extensionName: 'cabinet-well-formed-updates',
  async beforeHandleMessage({ update }) {
    if (!carriesWellFormedUpdate(update)) throw Object.assign(new Error('invalid_update'), { code: INVALID_UPDATE_CLOSE_CODE, reason: 'invalid_update' });
  },
};
