const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Random bytes for 256 ids, drawn at once: one call to the system's generator costs about what drawing 4 KB does, and
 * every request's id is one of these (genReqId), so they are drawn in bulk and each id takes 16 fresh ones.
 */
const pool = new Uint8Array(16 * 256);
let taken = pool.length;

/** UUIDv7 (RFC 9562): 48-bit millisecond time, then random bits; ids sort by creation time. */
export function uuidv7(now = Date.now()): string {
  if (taken === pool.length) {
    crypto.getRandomValues(pool);
    taken = 0;
  }
  const bytes = pool.subarray(taken, (taken += 16));
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  // By a table of byte pairs, for the same reason.
  const h = (i: number) => HEX[bytes[i]!]!;
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}
