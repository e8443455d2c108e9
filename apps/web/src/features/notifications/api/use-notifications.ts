import { notificationsApi, urlOf, type TNotificationPage, type TNotificationSettings } from '@cabinet/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { askWhoWhenRefused, call } from '../../../lib/api-client.ts';
import { applyNotice } from '../../../lib/changes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const PAGE = 20;

/**
 * The person's notifications, newest first, page by page, and how many are unread (from the
 * newest page). The workspace's live stream says when they change (see use-workspace-events), or,
 * on a page that watches no workspace, the notifications' own (`useNotificationEvents`).
 */
export function useNotifications() {
  const query = useInfiniteQuery({
    queryKey: queryKeys.notifications,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => call(notificationsApi.list, { query: { limit: PAGE, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
  });
  return { ...query, items: query.data?.pages.flatMap((p) => p.items), unreadCount: query.data?.pages[0]?.unreadCount ?? 0 };
}

/**
 * On a page that watches no workspace (the account page), the person's notifications' own live
 * stream: the bell's count follows there too. A workspace's page does not open it (`enabled`
 * false): its workspace stream carries the same notices, and a second stream per tab would take
 * one more of the few connections a browser keeps to one server.
 */
export function useNotificationEvents(enabled: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const source = new EventSource(urlOf(notificationsApi.events));
    askWhoWhenRefused(source);
    source.addEventListener('notifications', () => applyNotice(client));
    return () => source.close();
  }, [client, enabled]);
}

/** Marks some notifications, or all, as read; the list shows it at once. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: string[] } | { all: true }) => call(notificationsApi.read, { body: input }),
    onMutate: (input) => {
      const now = new Date().toISOString();
      client.setQueryData<InfiniteData<TNotificationPage>>(queryKeys.notifications, (data) => {
        if (!data) return data;
        const read = (id: string) => 'all' in input || input.ids.includes(id);
        const newlyRead = data.pages.flatMap((p) => p.items).filter((n) => !n.readAt && read(n.id)).length;
        return {
          ...data,
          pages: data.pages.map((p, i) => ({
            ...p,
            unreadCount: i === 0 ? Math.max(0, p.unreadCount - newlyRead) : p.unreadCount,
            items: p.items.map((n) => (!n.readAt && read(n.id) ? { ...n, readAt: now } : n)),
          })),
        };
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

export function useNotificationSettings() {
  return useQuery({ queryKey: queryKeys.notificationSettings, queryFn: () => call(notificationsApi.settings) });
}

export function useUpdateNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TNotificationSettings) => call(notificationsApi.updateSettings, { body: input }),
    onSuccess: (settings) => client.setQueryData(queryKeys.notificationSettings, settings),
  });
}
