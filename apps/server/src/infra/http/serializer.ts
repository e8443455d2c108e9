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
      write ??= fastJson(keyedUnions(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' })) as Parameters<typeof fastJson>[0]);
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

type Schema = Record<string, unknown>;
const isObjectSchema = (s: unknown): s is Schema & { properties?: Schema; required?: string[] } =>
  !!s && typeof s === 'object' && (s as Schema).type === 'object';
const isNull = (s: Schema) => s.type === 'null' && Object.keys(s).length === 1;
/** Keywords whose value maps names to schemas, and keywords whose value is data. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const VALUES = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords the generator acts on before it looks at `nullable`: a schema with one of them cannot be made nullable. */
const BEFORE_NULLABLE = ['anyOf', 'oneOf', 'allOf', 'if', '$ref', 'not'];

/**
 * The JSON schema with its unions written so that fast-json-stringify need not validate to write them. It picks a
 * union's branch by validating the value against each branch in turn (Ajv, every property, pattern and format): for a
 * page of a hundred items, each with a dozen fields that may be null, a thousand validations; for a batch of uploads'
 * answers, 3.6 % of the server's time. So:
 * - `X` or null (what zod's `.nullable()` makes) is `X` with `nullable: true`, which it writes after a check for null;
 * - a union of objects that each require a key no other branch names (`{ upload }` or `{ error }`) is if/then/else on
 *   that key, an `if` that only asks whether the key is there.
 * Any other union is left as it is.
 */
export function keyedUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(keyedUnions);
  if (!schema || typeof schema !== 'object') return schema;
  // Walked by the schema's structure: a map keyword's values are schemas (a property may be named `anyOf`); a value
  // keyword (`enum`, `const`, `default`…) holds data, never rewritten.
  const walked = (key: string, value: unknown) =>
    MAPS.has(key) && value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, keyedUnions(sub)]))
      : VALUES.has(key)
        ? value
        : keyedUnions(value);
  const { anyOf, ...rest } = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, walked(k, v)])) as Schema;
  if (!Array.isArray(anyOf)) return rest;
  const branches = anyOf as Schema[];
  if (branches.length === 2 && branches.some(isNull)) {
    const other = branches.find((b) => !isNull(b))!;
    // Only a typed schema with no list of values: Ajv refuses `nullable` without a type, and would not let null
    // through an `enum` or a `const` (where it validates a union left as it is).
    const plain = typeof other.type === 'string' && !('enum' in other) && !('const' in other);
    if (plain && !BEFORE_NULLABLE.some((k) => k in other)) return { ...rest, ...other, nullable: true };
  }
  if (branches.length < 2 || !branches.every(isObjectSchema)) return { ...rest, anyOf };
  const keys = branches.map((branch, i) => branch.required?.find((key) => branches.every((other, j) => j === i || !(key in (other.properties ?? {})))));
  if (keys.some((key) => key === undefined)) return { ...rest, anyOf };
  // The last branch is what remains when no earlier key is there.
  let chosen: Schema = branches.at(-1)!;
  for (let i = branches.length - 2; i >= 0; i--) chosen = { if: { type: 'object', required: [keys[i]] }, then: branches[i], else: chosen };
  return { ...rest, ...chosen };
}
