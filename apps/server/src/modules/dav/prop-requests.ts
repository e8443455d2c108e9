import { DAV, type XmlElement } from './xml-write.ts';

/** A PROPFIND or PROPPATCH body WebDAV does not allow: answered 400. */
export class PropRequestInvalid extends Error {}

/** Most properties one PROPFIND names or one PROPPATCH changes (clients name a dozen): an answer stays bounded. */
export const MAX_PROPS_PER_REQUEST = 200;
/** Longest namespace and local name of a property, in characters. */
export const MAX_PROP_NAME = { ns: 1024, local: 255 } as const;

function bounded(names: PropName[]): PropName[] {
  if (names.length > MAX_PROPS_PER_REQUEST) throw new PropRequestInvalid(`A request names at most ${MAX_PROPS_PER_REQUEST} properties.`);
  if (names.some((n) => n.ns.length > MAX_PROP_NAME.ns || n.local.length > MAX_PROP_NAME.local)) {
    throw new PropRequestInvalid(`A property's namespace is at most ${MAX_PROP_NAME.ns} characters, its name ${MAX_PROP_NAME.local}.`);
  }
  return names;
}

/** A property's name: its namespace ('' for none) and local name. */
export interface PropName {
  ns: string;
  local: string;
}

/** What a PROPFIND asks for (RFC 4918 §9.1): every property (with some named beyond), the names alone, or named ones. */
export type PropFind = { kind: 'allprop'; include: PropName[] } | { kind: 'propname' } | { kind: 'prop'; names: PropName[] };

/** One instruction of a PROPPATCH, in the order the body gives them (§9.2: they are applied in that order). */
export type PropPatchStep = { op: 'set'; value: XmlElement } | { op: 'remove'; name: PropName };

const elements = (e: XmlElement) => e.children.filter((c): c is XmlElement => typeof c !== 'string');
const isDav = (e: XmlElement, local: string) => e.ns === DAV && e.local === local;
const nameOf = (e: XmlElement): PropName => ({ ns: e.ns, local: e.local });

/** The body of a PROPFIND; none (or an empty one) asks for every property. Unknown elements are left aside (§17). */
export function readPropFind(body: XmlElement | undefined): PropFind {
  if (!body) return { kind: 'allprop', include: [] };
  if (!isDav(body, 'propfind')) throw new PropRequestInvalid('A PROPFIND body is a DAV:propfind.');
  const parts = elements(body);
  const prop = parts.find((e) => isDav(e, 'prop'));
  if (parts.some((e) => isDav(e, 'propname'))) return { kind: 'propname' };
  if (parts.some((e) => isDav(e, 'allprop'))) {
    const include = parts.find((e) => isDav(e, 'include'));
    return { kind: 'allprop', include: include ? bounded(elements(include).map(nameOf)) : [] };
  }
  if (!prop) throw new PropRequestInvalid('A PROPFIND body asks for allprop, propname or prop.');
  return { kind: 'prop', names: bounded(elements(prop).map(nameOf)) };
}

/** The body of a PROPPATCH: its set and remove instructions, in document order. */
export function readPropPatch(body: XmlElement): PropPatchStep[] {
  if (!isDav(body, 'propertyupdate')) throw new PropRequestInvalid('A PROPPATCH body is a DAV:propertyupdate.');
  const steps: PropPatchStep[] = [];
  for (const instruction of elements(body)) {
    const set = isDav(instruction, 'set');
    if (!set && !isDav(instruction, 'remove')) continue;
    for (const prop of elements(instruction).filter((e) => isDav(e, 'prop'))) {
      for (const value of elements(prop)) steps.push(set ? { op: 'set', value } : { op: 'remove', name: nameOf(value) });
    }
  }
  if (!steps.length) throw new PropRequestInvalid('A PROPPATCH body sets or removes at least one property.');
  bounded(steps.map((s) => (s.op === 'set' ? nameOf(s.value) : s.name)));
  return steps;
}
