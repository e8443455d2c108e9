import { defineAddressedRoute } from './define-route.ts';

/** The activity record: the workspace's audit log and one item's history (ADR 0027, 0033). */
export const activityApi = {
  workspace: defineAddressedRoute({
    method: 'GET',
    path: '/workspaces/:ws/activity',
    tag: 'activity',
    summary: "The workspace's audit log, newest first (owners and admins)",
    description:
      'Filters: `actorId` (a person), `action`, `itemId`, `after` and `before` (a date or a time). Pages by `cursor` (the `nextCursor` of the page before). ' +
      '`format=csv` answers every matching entry as a CSV attachment (text/csv) instead of a page; ' +
      'a cell that a spreadsheet would read as a formula starts with an apostrophe.',
    auth: 'read',
    public: true,
    query: 'ZWorkspaceActivityQuery',
    responses: { 200: 'ZActivityPage' },
    errors: ['forbidden'],
  }),
  item: defineAddressedRoute({
    method: 'GET',
    path: '/items/:id/activity',
    tag: 'activity',
    summary: 'What happened to an item, newest first (whoever may see it; addresses and browsers only for owners and admins)',
    auth: 'read',
    public: true,
    query: 'ZItemActivityQuery',
    responses: { 200: 'ZActivityPage' },
    errors: [],
  }),
};
