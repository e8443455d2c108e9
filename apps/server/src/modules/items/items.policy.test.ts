import type { TItemAbilities, TItemAbility, TItemRole } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import { abilitiesOf, type AbilityFacts } from './items.policy.ts';

const ROLES: TItemRole[] = ['viewer', 'commenter', 'editor', 'manager'];
const NONE: TItemAbilities = {
  view: false,
  download: false,
  comment: false,
  deleteAnyComment: false,
  edit: false,
  createInside: false,
  trash: false,
  restore: false,
  deleteForever: false,
  share: false,
  manage: false,
  restoreRevision: false,
  restoreVersion: false,
  deleteVersion: false,
};
const only = (...names: TItemAbility[]): TItemAbilities => ({ ...NONE, ...Object.fromEntries(names.map((n) => [n, true])) });
const facts = (role: TItemRole, more: Partial<AbilityFacts> = {}): AbilityFacts => ({
  role,
  kind: 'document',
  root: false,
  place: 'active',
  writes: true,
  ...more,
});

describe('abilities', () => {
  // PRODUCT.md §6's table, written out for a document in use (the kind that has every ability).
  it('follow the product table for a document', () => {
    expect(abilitiesOf(facts('viewer'))).toEqual(only('view', 'download'));
    expect(abilitiesOf(facts('commenter'))).toEqual(only('view', 'download', 'comment'));
    expect(abilitiesOf(facts('editor'))).toEqual(only('view', 'download', 'comment', 'edit', 'createInside', 'trash'));
    expect(abilitiesOf(facts('manager'))).toEqual(
      only('view', 'download', 'comment', 'edit', 'createInside', 'trash', 'share', 'manage', 'deleteAnyComment', 'restoreRevision'),
    );
  });

  it('give folders and files nothing only documents have, and files nothing inside them', () => {
    expect(abilitiesOf(facts('manager', { kind: 'folder' }))).toEqual(only('view', 'download', 'edit', 'createInside', 'trash', 'share', 'manage'));
    expect(abilitiesOf(facts('manager', { kind: 'file' }))).toEqual(
      only('view', 'download', 'edit', 'trash', 'share', 'manage', 'restoreVersion', 'deleteVersion'),
    );
    // Versions: editors add and name them, managers restore and delete them.
    expect(abilitiesOf(facts('editor', { kind: 'file' }))).toEqual(only('view', 'download', 'edit', 'trash'));
    expect(abilitiesOf(facts('commenter', { kind: 'folder' }))).toEqual(only('view', 'download'));
  });

  it('keep root folders where and as they are, while things can still be made in them', () => {
    expect(abilitiesOf(facts('manager', { kind: 'folder', root: true }))).toEqual(only('view', 'download', 'createInside', 'share', 'manage'));
    // A guest's own "My files" is a root they only view.
    expect(abilitiesOf(facts('viewer', { kind: 'folder', root: true }))).toEqual(only('view', 'download'));
  });

  it('allow only restoring (editors) and deleting forever (managers) in the trash, and nothing inside a trashed folder', () => {
    expect(abilitiesOf(facts('viewer', { place: 'trashed' }))).toEqual(NONE);
    expect(abilitiesOf(facts('commenter', { place: 'trashed' }))).toEqual(NONE);
    expect(abilitiesOf(facts('editor', { place: 'trashed' }))).toEqual(only('restore'));
    expect(abilitiesOf(facts('manager', { place: 'trashed', kind: 'folder' }))).toEqual(only('restore', 'deleteForever'));
    for (const role of ROLES) expect(abilitiesOf(facts(role, { place: 'in-trashed-folder' }))).toEqual(NONE);
  });

  it('let a caller who may not write (an API token without `write`) only look and download', () => {
    for (const role of ROLES) expect(abilitiesOf(facts(role, { writes: false }))).toEqual(only('view', 'download'));
    expect(abilitiesOf(facts('manager', { writes: false, place: 'trashed' }))).toEqual(NONE);
  });

  it('never give a stronger role less, whatever the item', () => {
    const kinds: AbilityFacts['kind'][] = ['folder', 'file', 'document'];
    const places: AbilityFacts['place'][] = ['active', 'trashed', 'in-trashed-folder'];
    for (const kind of kinds)
      for (const place of places)
        for (const root of [false, true])
          for (const writes of [false, true])
            for (const [i, weaker] of ROLES.entries())
              for (const stronger of ROLES.slice(i)) {
                const low = abilitiesOf({ role: weaker, kind, root, place, writes });
                const high = abilitiesOf({ role: stronger, kind, root, place, writes });
                for (const name of Object.keys(NONE) as TItemAbility[])
                  if (low[name]) expect(high[name], `${stronger} ${name} on ${kind} ${place} root=${root} writes=${writes}`).toBe(true);
              }
  });
});
