import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { carriesWellFormedUpdate } from './well-formed.ts';

function message(type: number, kind: number | undefined, payload: Uint8Array) {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, 'doc');
  encoding.writeVarUint(e, type);
  if (kind !== undefined) encoding.writeVarUint(e, kind);
  encoding.writeVarUint8Array(e, payload);
  return encoding.toUint8Array(e);
}

describe('messages on the collaboration socket', () => {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, 'hello');
  const update = Y.encodeStateAsUpdate(doc);

  it('takes real updates and messages that carry none', () => {
    expect(carriesWellFormedUpdate(message(0, 2, update))).toBe(true);
    expect(carriesWellFormedUpdate(message(0, 1, update))).toBe(true);
    expect(carriesWellFormedUpdate(message(0, 0, Y.encodeStateVector(doc)))).toBe(true);
    expect(carriesWellFormedUpdate(message(1, undefined, Uint8Array.from([1, 2, 3])))).toBe(true);
  });

  it('refuses an update that is not one, and a message cut short', () => {
    expect(carriesWellFormedUpdate(message(0, 2, Uint8Array.from([0xde, 0xad, 0xbe, 0xef])))).toBe(false);
    expect(carriesWellFormedUpdate(message(0, 2, update.subarray(0, update.length - 3)))).toBe(false);
    expect(carriesWellFormedUpdate(Uint8Array.from([3, 100]))).toBe(false);
  });
});
