import { invitationsApi, membersApi, workspacesApi, type TCreateInvitationRequest, type TInvitation, type TWorkspaceRole } from '@cabinet/contracts';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Everyone in the workspace, deactivated accounts too, by name, a page of 100 at a time. */
export function useMembers(ws: string) {
  const query = useInfiniteQuery({
    queryKey: queryKeys.members(ws),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      call(workspacesApi.members, { params: { ws }, query: { limit: 100, include: 'deactivated', ...(pageParam ? { cursor: pageParam } : {}) } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items) };
}

/**
 * The first people of the workspace whose name or email contains `q`, searched on the server as
 * someone types, so a picker works in a workspace of any size; members only with `withoutGuests`,
 * deactivated accounts too with `withDeactivated` (owners and admins).
 */
export function useMemberSearch(ws: string, q: string, o: { withoutGuests?: boolean; withDeactivated?: boolean } = {}) {
  const filters = { ...(o.withoutGuests ? { exclude: 'guests' as const } : {}), ...(o.withDeactivated ? { include: 'deactivated' as const } : {}) };
  return useQuery({
    queryKey: queryKeys.memberSearch(ws, q, filters),
    queryFn: async () => (await call(workspacesApi.members, { params: { ws }, query: { limit: 20, ...(q ? { q } : {}), ...filters } })).items,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** A change to who is in the workspace: the lists, and the caller's own role and abilities (handing over makes them an admin). */
function useTeamChange<I, O>(ws: string, mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.allMembers(ws) });
      void client.invalidateQueries({ queryKey: queryKeys.invitations(ws) });
    },
  });
}

export function useChangeRole(ws: string) {
  const client = useQueryClient();
  return useTeamChange(ws, async ({ userId, role }: { userId: string; role: TWorkspaceRole }) => {
    const member = await call(membersApi.update, { params: { ws, userId }, body: { role } });
    // Handing over makes the caller an admin, and an admin may change their own role: the caller's role and abilities are read again.
    await client.invalidateQueries({ queryKey: queryKeys.workspaces });
    return member;
  });
}

export function useRemoveMember(ws: string) {
  const client = useQueryClient();
  return useTeamChange(ws, async ({ userId, filesTo }: { userId: string; filesTo: string }) => {
    await call(membersApi.remove, { params: { ws, userId }, query: { filesTo } });
    // The recipient's My files gained a folder; someone who left has one workspace fewer (before the page leaves it).
    void client.invalidateQueries({ queryKey: queryKeys.allChildren(ws) });
    await client.invalidateQueries({ queryKey: queryKeys.workspaces });
  });
}

/** Every invitation of the workspace, newest first, read page after page. */
export function useInvitations(ws: string) {
  return useQuery({
    queryKey: queryKeys.invitations(ws),
    queryFn: async () => {
      const all: TInvitation[] = [];
      let cursor: string | undefined;
      do {
        const page = await call(invitationsApi.list, { params: { ws }, query: { limit: 200, ...(cursor ? { cursor } : {}) } });
        all.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return all;
    },
  });
}

export function useCreateInvitation(ws: string) {
  return useTeamChange(ws, (body: TCreateInvitationRequest) => call(invitationsApi.create, { params: { ws }, body }));
}

export function useRevokeInvitation(ws: string) {
  return useTeamChange(ws, (id: string) => call(invitationsApi.revoke, { params: { ws, id } }));
}

export function useResendInvitation(ws: string) {
  return useTeamChange(ws, (id: string) => call(invitationsApi.resend, { params: { ws, id } }));
}

/** What an invitation is to, readable before signing in. */
/** An invitation by the token of its link, or by its id when it was sent to the signed-in person's address (from their notification). */
export type InvitationRef = { token: string } | { id: string };

export function useInvitationPreview(ref: InvitationRef) {
  return useQuery({
    queryKey: queryKeys.invitation('token' in ref ? ref.token : ref.id),
    queryFn: () =>
      'token' in ref ? call(invitationsApi.preview, { params: { token: ref.token } }) : call(invitationsApi.previewMine, { params: { id: ref.id } }),
    retry: false,
  });
}

export function useAcceptInvitation(ref: InvitationRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      'token' in ref ? call(invitationsApi.accept, { params: { token: ref.token } }) : call(invitationsApi.acceptMine, { params: { id: ref.id } }),
    // Joining may have found the person's address confirmed since they signed in: `me` says so too.
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.workspaces }), client.invalidateQueries({ queryKey: queryKeys.me })]),
  });
}
