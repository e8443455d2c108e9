import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/**
 * Turns a declared answer into JSON. In production, with a serializer generated once per route from
 * the answer's JSON schema (fast-json-stringify): it writes the declared properties and nothing else,
 * without checking the answer against its zod schema (on a page of 100 items the check cost more
 * than the database, ADR 0049). With `checked` (CHECK_RESPONSES, on in tests) every answer is also
 * checked by zod as before, and the generated serializer must write exactly what zod's answer is:
 * a handler answering outside its declaration, or a schema the generator reads otherwise than zod,
 * fails the test that sent it.
 */
export function responseSerializer(checked: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    // Generated on the first answer: a server that never sends a route's answer does not pay for it.
    let write: ((data: unknown) => string) | undefined;
    const generated = (data: unknown) => {
      write ??= fastJson(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Parameters<typeof fastJson>[0]);
      return write(data);
    };
    if (!checked) return generated;
    return (data) => {
      const result = z.safeEncode(schema, data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      const json = generated(data);
      const expected: unknown = JSON.parse(JSON.stringify(result.data));
      if (!isDeepStrictEqual(JSON.parse(json), expected))
        throw new Error(`${method} ${url}: the generated serializer wrote ${json}, zod's answer is ${JSON.stringify(expected)}`);
      return json;
    };
  };
}
