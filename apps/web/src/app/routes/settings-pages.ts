import type { TWorkspace, TWorkspaceAbility } from '@cabinet/contracts';
import { pageRoutes, type SettingsPageName } from '../../lib/page-routes.ts';

/**
 * The pages of a workspace's settings, each for those with its ability (the owner and admins have
 * them all); each later settings page joins this list. Apart from the pages themselves, so the
 * shell can link to them without loading them.
 */
export const SETTINGS_PAGES = [
  { path: 'members', label: 'Members', ability: 'manageMembers' },
  { path: 'groups', label: 'Groups', ability: 'manageGroups' },
  { path: 'links', label: 'Public links', ability: 'manageLinks' },
  { path: 'search', label: 'Search', ability: 'changeSettings' },
  { path: 'audit', label: 'Audit log', ability: 'readAudit' },
] as const satisfies readonly { path: SettingsPageName; label: string; ability: TWorkspaceAbility }[];

export type SettingsPage = (typeof SETTINGS_PAGES)[number];

/** The settings pages the caller may use. */
export const settingsPagesFor = (w: TWorkspace): SettingsPage[] => SETTINGS_PAGES.filter((p) => w.abilities[p.ability]);

/** The address of the first settings page the caller may use; none when they may use none. */
export function settingsPath(w: TWorkspace): string | undefined {
  const first = settingsPagesFor(w)[0];
  return first && pageRoutes.settings(w.slug, first.path);
}
