import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZCommentAnchor, ZCommentBody } from './comments.ts';
import { encodeCursor, ZCursor, ZId, ZText, ZWorkspaceRef } from './common.ts';
import { ZChildrenQuery, ZItemName, ZTrashQuery } from './items.ts';
import { ZUpdateMeRequest } from './me.ts';
import { ZCreateApiTokenRequest } from './tokens.ts';
import { ZCreateWorkspaceRequest } from './workspaces.ts';

const controls = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0080', '\u0085', '\u009f', '\ud800', '\udfff', 'a\ud83d'];

describe('names (PRODUCT.md §5)', () => {
  it('refuse every control character, C0 and C1, and lone surrogates', () => {
    for (const c of controls) expect(ZItemName.safeParse(`report${c}.txt`).success, JSON.stringify(c)).toBe(false);
  });

  it('keep the characters people write, emoji included', () => {
    for (const name of ['Q3 report.pdf', 'Équipe données', '日本語のメモ', 'plan 🚀.md', 'a\u00a0b']) expect(ZItemName.parse(name)).toBe(name.normalize('NFC'));
  });
});

describe('free text', () => {
  it('on one line refuses NUL, controls and lone surrogates in every field that takes it', () => {
    const fields = [
      (s: string) => ZUpdateMeRequest.safeParse({ name: s }),
      (s: string) => ZCreateApiTokenRequest.safeParse({ name: s }),
      (s: string) => ZCreateWorkspaceRequest.safeParse({ name: s }),
    ];
    for (const parse of fields) {
      expect(parse('Ada Lovelace').success).toBe(true);
      for (const c of [...controls, '\n', '\t']) expect(parse(`Ada${c}Lovelace`).success, JSON.stringify(c)).toBe(false);
    }
  });

  it('over several lines keeps new lines and tabs, and refuses other controls', () => {
    expect(ZCommentBody.parse('First line\n\tsecond line')).toBe('First line\n\tsecond line');
    for (const c of [...controls, '\r']) expect(ZCommentBody.safeParse(`a${c}b`).success, JSON.stringify(c)).toBe(false);
  });

  it('is trimmed and bounded', () => {
    expect(ZText(5).parse('  abc  ')).toBe('abc');
    expect(ZText(5).safeParse('abcdef').success).toBe(false);
  });
});

describe('comment anchors', () => {
  it('are two Yjs relative positions, nothing else', () => {
    const position = { type: { client: 1, clock: 2 }, tname: null, item: { client: 1, clock: 5 }, assoc: 0 };
    expect(ZCommentAnchor.safeParse({ start: position, end: { tname: 'default', assoc: -1 } }).success).toBe(true);
    expect(ZCommentAnchor.safeParse({ start: position, end: { tname: 'a\u0000' } }).success).toBe(false);
    expect(ZCommentAnchor.safeParse({ start: position, end: { item: { client: 'x', clock: 1 } } }).success).toBe(false);
    expect(ZCommentAnchor.safeParse({ start: position, end: { text: 'y'.repeat(3000) } }).success).toBe(false);
  });
});

describe('page cursors', () => {
  const position = { at: '2026-01-02T03:04:05.678Z', id: '019a0000-0000-7000-8000-000000000001' };

  it('read back what a listing encoded', () => {
    expect(ZTrashQuery.parse({ cursor: encodeCursor(position) })).toEqual({ cursor: position, limit: 100 });
    const children = { f: true, k: 'Ünïcode name', i: position.id };
    expect(ZChildrenQuery.parse({ cursor: encodeCursor(children) }).cursor).toEqual(children);
  });

  it('refuse anything else as invalid input on the cursor field', () => {
    const bad = [
      'not base64!',
      'a',
      encodeCursor('just a string'),
      encodeCursor({ at: 'yesterday', id: position.id }),
      encodeCursor({ ...position, id: '\u0000' }),
      btoa('\xff\xfe{').replace(/=+$/, ''),
      'x'.repeat(3000),
    ];
    for (const cursor of bad) {
      const result = ZTrashQuery.safeParse({ cursor });
      expect(result.success, cursor.slice(0, 40)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['cursor']);
    }
  });

  it('of a folder hold a sort key of the sort asked for', () => {
    const cursor = encodeCursor({ f: true, k: 'abc', i: position.id });
    expect(ZChildrenQuery.safeParse({ cursor, sort: 'name' }).success).toBe(true);
    for (const sort of ['size', 'modified']) expect(ZChildrenQuery.safeParse({ cursor, sort }).error?.issues[0]?.path).toEqual(['cursor']);
    expect(ZChildrenQuery.safeParse({ cursor: encodeCursor({ f: false, k: '2026-11-23 10:12:14.123456+00', i: position.id }), sort: 'modified' }).success).toBe(
      true,
    );
    expect(ZChildrenQuery.safeParse({ cursor: encodeCursor({ f: false, k: '1024', i: position.id }), sort: 'size' }).success).toBe(true);
  });

  it('decode to the position schema given', () => {
    expect(ZCursor(z.object({ n: z.number() })).parse(encodeCursor({ n: 3 }))).toEqual({ n: 3 });
  });
});

describe('workspaces in a path', () => {
  it('are an id or a slug, nothing else', () => {
    expect(ZWorkspaceRef.safeParse('design-team').success).toBe(true);
    expect(ZWorkspaceRef.safeParse(ZId.parse('019a0000-0000-7000-8000-000000000001')).success).toBe(true);
    for (const ws of ['\u0000', '..', 'Design Team', 'a', 'x'.repeat(49), '%00']) expect(ZWorkspaceRef.safeParse(ws).success, ws).toBe(false);
  });
});
