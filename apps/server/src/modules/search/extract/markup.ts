import { Parser, type Handler } from 'htmlparser2';

/**
 * Elements open at once past which reading stops. htmlparser2 keeps the open elements in an array
 * it adds to and searches from the front, so its time grows with the square of the depth (a
 * 5 MB file of `<div>`s took minutes); documents people write nest tens deep.
 */
export const MAX_DEPTH = 500;

/** Thrown out of the parser's `write` when the markup nests past MAX_DEPTH. */
export class TooDeep extends Error {}

/** An htmlparser2 parser (entities decoded) that throws TooDeep rather than nest past MAX_DEPTH. */
export function markupParser(handler: Partial<Handler>, xmlMode: boolean): Parser {
  let depth = 0;
  return new Parser(
    {
      ...handler,
      // Every element opened is closed by an event of its own (void and implied ones too), so this is the parser's depth.
      onopentag(name, attrs, implied) {
        if (++depth > MAX_DEPTH) throw new TooDeep();
        handler.onopentag?.(name, attrs, implied);
      },
      onclosetag(name, implied) {
        depth--;
        handler.onclosetag?.(name, implied);
      },
    },
    { xmlMode, decodeEntities: true },
  );
}
