import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * Which proxies in front of Cabinet are believed about the caller's address (TRUST_PROXY): none;
 * every one (`true`: the leftmost X-Forwarded-For entry, which a caller can write themself unless
 * the proxy overwrites the header); the nearest `n` hops; or those at the addresses and CIDR ranges
 * listed. Past the trusted proxies, the next address is the caller's, whatever they put in front of it.
 */
export type TrustProxy = boolean | number | readonly string[];

/** What Fastify (and the collaboration socket) ask of each hop, nearest first: is it a proxy of ours? */
export type TrustHop = (address: string, hop: number) => boolean;

/** An address with its IPv4-mapped IPv6 form (`::ffff:10.0.0.1`) read as the IPv4 address it is. */
const plain = (address: string) => (address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/** Whether a connection's address is this machine's own (127.0.0.0/8, ::1, or 127.x as IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = plain(address);
  return a === '::1' || (isIP(a) === 4 && a.startsWith('127.'));
}

export function trustHop(trust: TrustProxy): TrustHop {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  const list = new BlockList();
  for (const entry of trust) {
    const [address, bits] = entry.split('/');
    const family = isIP(address!) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(bits), family);
  }
  return (address) => {
    const a = plain(address);
    const family = isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The caller's address as Fastify's `trustProxy` reads it: from the socket outwards through
 * X-Forwarded-For, the first hop that is not a trusted proxy (or the farthest one given).
 */
export function clientAddress(req: IncomingMessage, trust: TrustHop): string {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .reverse();
  const hops = [req.socket.remoteAddress ?? '', ...forwarded];
  let i = 0;
  while (i < hops.length - 1 && trust(hops[i]!, i)) i++;
  return hops[i]!;
}

/**
 * What a limit per address counts by: an IPv4 address itself, an IPv6 address by its /64 (one
 * household or server usually holds a whole /64, so its single addresses are free to change).
 */
export function rateKey(address: string): string {
  const a = plain(address);
  if (isIP(a) !== 6) return a;
  const [head = '', tail = ''] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = a.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
