import { expect, it } from 'vitest';
import { ZWorkspaceSlug } from '@cabinet/contracts';
import { slugify } from './workspaces.service.ts';

it('turns any name into a valid workspace address', () => {
  expect(slugify("Ada's workspace")).toBe('ada-s-workspace');
  expect(slugify('Équipe Données')).toBe('equipe-donnees');
  expect(slugify('日本')).toBe('workspace');
  expect(slugify('AB')).toBe('workspace-ab');
  for (const name of ["Ada's workspace", '日本', 'x'.repeat(300), '--a--']) expect(ZWorkspaceSlug.safeParse(slugify(name)).success).toBe(true);
});
