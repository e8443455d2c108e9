import { inTransaction } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { DavCall } from './dav-call.ts';
import { davHref } from './dav-path.ts';
import { isCollection, type DavResource } from './dav-resources.ts';
import { changeDeadProps, countDeadProps } from './dav.repo.ts';
import { isLive } from './live-props.ts';
import { requireUnlocked } from './locks.ts';
import { multistatus, propResponse, type PropOutcome } from './multistatus.ts';
import type { PropPatchStep } from './prop-requests.ts';
import { DavRefusal } from './refusal.ts';
import { writeXml, type XmlElement } from './xml-write.ts';

/** Bounds on what clients may keep in dead properties: an item's count, one value's size as written. */
export const DEAD_PROPS = { perItem: 200, valueBytes: 64 * 1024 } as const;

/**
 * PROPPATCH (RFC 4918 §9.2): dead properties set and removed in the order given, all or none. A live property
 * cannot be changed this way (403 cannot-modify-protected-property); a value past its bound, or one property too many,
 * is 507; when one instruction fails, the others are 424 and nothing changes.
 */
export async function proppatch(call: DavCall, r: DavResource, steps: PropPatchStep[]): Promise<XmlElement> {
  if (r.kind !== 'item') throw new DavRefusal(403, 'Only files, folders and documents keep properties.');
  const mayChange = r.isPlace ? r.item.abilities.createInside : r.item.abilities.edit;
  if (!mayChange) throw new AppError('forbidden');
  await requireUnlocked(call, r);
  const { db } = call.ctx;
  const have = await countDeadProps(db, r.item.id);
  const failures = steps.map((step): number | undefined => {
    const name = step.op === 'set' ? step.value : step.name;
    if (isLive(name)) return 403;
    if (step.op === 'set' && Buffer.byteLength(writeXml(step.value)) > DEAD_PROPS.valueBytes) return 507;
    return undefined;
  });
  // Counted as if each set were new: a client replacing its own properties at the bound is refused, never over it.
  if (have + steps.filter((s) => s.op === 'set').length > DEAD_PROPS.perItem) {
    steps.forEach((s, i) => s.op === 'set' && (failures[i] ??= 507));
  }
  const failed = failures.some((f) => f !== undefined);
  if (!failed) {
    await inTransaction(db, (tx) =>
      changeDeadProps(
        tx,
        r.item.id,
        steps.map((s) => (s.op === 'set' ? { set: s.value } : { remove: s.name })),
      ),
    );
  }
  const outcomes: PropOutcome[] = steps.map((step, i) => {
    const value = step.op === 'set' ? step.value : step.name;
    return { name: { ns: value.ns, local: value.local }, status: failed ? (failures[i] ?? 424) : 200 };
  });
  return multistatus([propResponse(davHref(r.names, isCollection(r)), outcomes)]);
}
