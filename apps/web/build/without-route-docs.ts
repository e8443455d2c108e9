import { parseAst, type Plugin } from 'vite';

/** The documentation that route declarations carry for the OpenAPI description: read by the server only. */
const ROUTE_DOCS = new Set(['summary', 'description']);

interface Node {
  type: string;
  start: number;
  end: number;
}
interface PropertyNode extends Node {
  key?: { name?: string };
}

/**
 * `code` without the `summary` and `description` of each `defineRoute(…)`/`defineAddressedRoute(…)` declaration, found
 * by parsing. A run of removed properties goes with the comma that joins it to the next kept one, or, at the end of
 * the object, with the comma after the last kept one; an object left empty keeps its braces.
 */
export function stripRouteDocs(code: string): string {
  const cuts: [number, number][] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as Node & { callee?: { type: string; name?: string }; arguments?: unknown[] };
    if (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && /^define(Addressed)?Route$/.test(n.callee.name ?? '')) {
      const object = n.arguments?.[0] as (Node & { properties: PropertyNode[] }) | undefined;
      if (object?.type === 'ObjectExpression') cuts.push(...cutsIn(object));
    }
    for (const value of Object.values(node)) if (value && typeof value === 'object') visit(value);
  };
  visit(parseAst(code));
  let out = code;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  return out;
}

/** The stretches of an object literal's text to cut: one per run of removed properties, never overlapping. */
function cutsIn(object: Node & { properties: PropertyNode[] }): [number, number][] {
  const props = object.properties;
  const removed = props.map((p) => p.type === 'Property' && ROUTE_DOCS.has(p.key?.name ?? ''));
  const cuts: [number, number][] = [];
  for (let i = 0; i < props.length; i++) {
    if (!removed[i]) continue;
    let j = i;
    while (j + 1 < props.length && removed[j + 1]) j++;
    if (j + 1 < props.length) cuts.push([props[i]!.start, props[j + 1]!.start]);
    else if (i > 0) cuts.push([props[i - 1]!.end, props[j]!.end]);
    // Every property goes: everything between the braces.
    else cuts.push([object.start + 1, object.end - 1]);
    i = j;
  }
  return cuts;
}

/**
 * Leaves each route declaration's `summary` and `description` out of the browser app: the browser calls routes by
 * method and path and never shows their documentation (about 1 KB of the first page's compressed script). Only the
 * contracts' route modules are touched.
 */
export function withoutRouteDocs(): Plugin {
  return {
    name: 'cabinet:without-route-docs',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contracts[\\/]src[\\/]routes[\\/](?!define-route)[^\\/]+\.ts$/.test(id)) return null;
      const out = stripRouteDocs(code);
      // The build makes no source maps; were it to, these modules' maps would be off by the removed text.
      return out === code ? null : { code: out, map: null };
    },
  };
}
