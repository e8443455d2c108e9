import { ZCompleteUploadsResponse, ZItem, ZStartUploadsResponse } from '@cabinet/contracts';
import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keyedUnions, responseSerializer } from './serializer.ts';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-7', io: 'output' });
const serializerOf = (schema: z.ZodType, checked: boolean) =>
  responseSerializer(checked)({ schema, method: 'POST', url: '/t', httpStatus: '200' } as Parameters<ReturnType<typeof responseSerializer>>[0]);

describe('answers with a union of objects', () => {
  it('are written without validating a value against each branch: no union is left in an item or a batch of uploads’ answers', () => {
    for (const schema of [ZStartUploadsResponse, ZCompleteUploadsResponse, ZItem]) {
      const written = JSON.stringify(keyedUnions(jsonSchema(schema)));
      expect(written).not.toContain('anyOf');
      if (schema !== ZItem) expect(written).toContain('"if":{"type":"object","required":["upload"]}');
    }
  });

  it('are written as zod answers them, whichever branch each entry takes, checked or not', () => {
    const schema = z.object({
      results: z.array(z.union([z.object({ upload: z.object({ id: z.string(), size: z.number() }) }), z.object({ error: z.object({ code: z.string() }) })])),
    });
    const answer = { results: [{ upload: { id: 'a', size: 1 } }, { error: { code: 'quota_exceeded' } }, { upload: { id: 'b', size: 2 } }] };
    for (const checked of [true, false]) expect(JSON.parse(serializerOf(schema, checked)(answer))).toEqual(answer);
  });

  it('write a value that may be null as null or as itself, a string, a number, an object or a list', () => {
    const schema = z.object({
      s: z.string().nullable(),
      n: z.number().nullable(),
      o: z.object({ a: z.string() }).nullable(),
      l: z.array(z.number()).nullable(),
      d: z.iso.datetime().nullable(),
    });
    expect(JSON.stringify(keyedUnions(jsonSchema(schema)))).not.toContain('anyOf');
    for (const answer of [
      { s: null, n: null, o: null, l: null, d: null },
      { s: 'x', n: 0, o: { a: '' }, l: [1, 2], d: '2026-11-30T00:00:00.000Z' },
    ])
      for (const checked of [true, false]) expect(JSON.parse(serializerOf(schema, checked)(answer))).toEqual(answer);
  });

  it('are left as unions where no key tells the branches apart, or a branch is not an object', () => {
    const shared = z.union([z.object({ a: z.string() }), z.object({ a: z.number(), b: z.string().optional() })]);
    const mixed = z.union([z.object({ a: z.string() }), z.string(), z.null()]);
    // Null would not pass an enum or a const, and Ajv refuses `nullable` without a type.
    const listed = z.enum(['a', 'b']).nullable();
    const untyped = z.unknown().nullable();
    for (const schema of [shared, mixed, listed, untyped]) expect(keyedUnions(jsonSchema(schema))).toEqual(jsonSchema(schema));
    // A property named like a keyword is a property, and data is never rewritten.
    const named = z.object({ anyOf: z.object({ a: z.string() }).nullable(), kind: z.enum(['anyOf', 'if']) });
    expect(keyedUnions(jsonSchema(named))).toMatchObject({ properties: { anyOf: { type: 'object', nullable: true }, kind: { enum: ['anyOf', 'if'] } } });
    // And still written right by the generator.
    const write = fastJson(keyedUnions(jsonSchema(z.object({ v: shared }))) as Parameters<typeof fastJson>[0]);
    expect(JSON.parse(write({ v: { a: 2, b: 'x' } }))).toEqual({ v: { a: 2, b: 'x' } });
  });
});
