import { davHref } from './dav-path.ts';
import { findClientFacts } from '../files/index.ts';
import { findDeadProps } from './dav.repo.ts';
import { childrenOf, isCollection, type DavResource } from './dav-resources.ts';
import { isLive, liveNames, liveProp, type PropContext } from './live-props.ts';
import { multistatus, propResponse, type PropOutcome } from './multistatus.ts';
import type { PropFind, PropName } from './prop-requests.ts';
import { DavRefusal } from './refusal.ts';
import { d, DAV, element, type XmlElement } from './xml-write.ts';
import { lockDiscovery } from './locks.ts';
import type { DavCall } from './dav-call.ts';

/** The `Depth` of a PROPFIND: 0 or 1 (1 when none is given); infinity is refused as RFC 4918 §9.1 allows. */
export function propfindDepth(header: string | undefined): 0 | 1 {
  const depth = (header ?? '1').trim().toLowerCase();
  if (depth === '0') return 0;
  if (depth === '1') return 1;
  if (depth === 'infinity') throw new DavRefusal(403, 'Depth: infinity is not served: ask for each collection with Depth: 1.', d('propfind-finite-depth'));
  throw new DavRefusal(400, 'Depth is 0, 1 or infinity.');
}

/** What a PROPFIND answers: the resource's properties, and its members' at depth 1, as a multistatus. */
export async function propfind(call: DavCall, resource: DavResource, depth: 0 | 1, asked: PropFind): Promise<XmlElement> {
  const { ctx, actor } = call;
  const members = depth === 1 && isCollection(resource) ? await childrenOf(ctx.db, actor, resource) : [];
  // A document alone has its Markdown rendered for its length; in a listing it is left out (rendering each would be slow).
  const own: PropContext = {};
  if (depth === 0 && resource.kind === 'item' && resource.item.kind === 'document')
    own.documentLength = Buffer.byteLength(await call.markdown(resource.item.id));
  const all = [resource, ...members];
  const dead =
    asked.kind === 'prop' && asked.names.every(isLive)
      ? new Map<string, XmlElement[]>()
      : await findDeadProps(
          ctx.db,
          all.flatMap((r) => (r.kind === 'item' ? [r.item.id] : [])),
        );
  const wantsLocks = asked.kind === 'allprop' || (asked.kind === 'prop' && asked.names.some((n) => n.ns === DAV && n.local === 'lockdiscovery'));
  const locks = wantsLocks ? await lockDiscovery(call, resource, members) : new Map<DavResource, XmlElement[]>();
  // What clients said of each file: the resource's own as the walk of its path read it, its members' read here.
  const files = all.flatMap((r) => (r.kind === 'item' && r.item.kind === 'file' && !r.access ? [r.item.id] : []));
  const facts = await findClientFacts(ctx.db, files);
  const responses = all.map((r) => {
    const said = r.kind === 'item' ? (r.access?.client ?? facts.get(r.item.id)) : undefined;
    const c: PropContext = {
      ...(r === resource ? own : {}),
      locks: locks.get(r) ?? [],
      modifiedAt: said?.modifiedAt ?? undefined,
      checksums: said?.checksums ?? undefined,
    };
    return propResponse(davHref(r.names, isCollection(r)), outcomes(r, c, asked, (r.kind === 'item' && dead.get(r.item.id)) || []));
  });
  return multistatus(responses);
}

function outcomes(r: DavResource, c: PropContext, asked: PropFind, dead: XmlElement[]): PropOutcome[] {
  const deadNamed = (name: PropName) => dead.find((e) => e.ns === name.ns && e.local === name.local);
  const valueOf = (name: PropName): PropOutcome => {
    const value = isLive(name) ? liveProp(r, name, c) : deadNamed(name);
    return value ? { name, status: 200, value } : { name, status: 404 };
  };
  if (asked.kind === 'propname') {
    return [...liveNames(r, c, false), ...dead].map((name) => ({ name, status: 200, value: element(name.ns, name.local) }));
  }
  if (asked.kind === 'prop') return asked.names.map(valueOf);
  const names = liveNames(r, c, true);
  const extra = asked.include.filter((n) => !names.some((m) => m.ns === n.ns && m.local === n.local) && isLive(n));
  return [...[...names, ...extra].map(valueOf), ...dead.map((value) => ({ name: value, status: 200 as const, value }))];
}
