/**
 * The WebDAV `If` request header (RFC 4918 §10.4): lists of conditions on state tokens (lock tokens) and entity tags,
 * for the request's resource (untagged lists) or for the resources they name (tagged lists). The header holds when
 * any one list holds; a list holds when each of its conditions does, `Not` turning one around. Every state token in
 * the header counts as submitted, whatever the header's outcome (§10.4.1): that is what a lock asks of a change.
 */

export interface IfCondition {
  not: boolean;
  /** A state token (`opaquelocktoken:…`, `DAV:no-lock`) or an entity tag as sent, quotes and any `W/` kept. */
  kind: 'token' | 'etag';
  value: string;
}

export interface IfList {
  /** The resource a tagged list is about, as sent (an absolute URI or path); null for the request's own resource. */
  resource: string | null;
  conditions: IfCondition[];
}

export class IfHeaderSyntax extends Error {}

/** Parses the header; throws IfHeaderSyntax for anything the grammar does not allow (answered 400). */
export function parseIfHeader(header: string): IfList[] {
  const lists: IfList[] = [];
  let i = 0;
  let tagged: boolean | undefined;
  let resource: string | null = null;
  const fail = (why: string): never => {
    throw new IfHeaderSyntax(`The If header is malformed: ${why}.`);
  };
  const skipSpace = () => {
    while (i < header.length && /[ \t\r\n]/.test(header[i]!)) i++;
  };
  const until = (close: string) => {
    const end = header.indexOf(close, i);
    if (end < 0) fail(`"${close}" is missing`);
    const text = header.slice(i, end);
    i = end + 1;
    return text;
  };
  for (skipSpace(); i < header.length; skipSpace()) {
    const c = header[i]!;
    if (c === '<') {
      if (tagged === false) fail('tagged and untagged lists are mixed');
      tagged = true;
      i++;
      resource = until('>');
      if (!resource || /\s/.test(resource)) fail('a resource tag is empty or holds spaces');
      skipSpace();
      if (header[i] !== '(') fail('a resource tag is not followed by a list');
      continue;
    }
    if (c !== '(') fail(`unexpected "${c}"`);
    if (tagged === undefined) tagged = false;
    i++;
    const conditions: IfCondition[] = [];
    for (skipSpace(); header[i] !== ')'; skipSpace()) {
      if (i >= header.length) fail('a list is not closed');
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skipSpace();
      }
      if (header[i] === '<') {
        i++;
        const token = until('>');
        if (!token || /\s/.test(token)) fail('a state token is empty or holds spaces');
        conditions.push({ not, kind: 'token', value: token });
      } else if (header[i] === '[') {
        i++;
        skipSpace();
        const start = i;
        if (header.startsWith('W/', i)) i += 2;
        if (header[i] !== '"') fail('an entity tag is not quoted');
        i++;
        until('"');
        const etag = header.slice(start, i);
        skipSpace();
        if (header[i] !== ']') fail('an entity tag is not closed');
        i++;
        conditions.push({ not, kind: 'etag', value: etag });
      } else fail('a condition is neither a state token nor an entity tag');
    }
    i++;
    if (!conditions.length) fail('a list is empty');
    lists.push({ resource: tagged ? resource : null, conditions });
  }
  if (!lists.length) fail('it holds no list');
  return lists;
}

/** Every state token the header names, under `Not` too (RFC 4918 §10.4.1). */
export function submittedTokens(lists: IfList[]): Set<string> {
  return new Set(lists.flatMap((l) => l.conditions.filter((c) => c.kind === 'token').map((c) => c.value)));
}

/**
 * Whether the header holds: some list whose every condition holds. `holds` answers one condition, not yet turned
 * around by `Not`, about a list's resource (null: the request's own).
 */
export async function ifHeaderHolds(lists: IfList[], holds: (resource: string | null, condition: IfCondition) => Promise<boolean>): Promise<boolean> {
  for (const list of lists) {
    let all = true;
    for (const condition of list.conditions) {
      if ((await holds(list.resource, condition)) === condition.not) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}
