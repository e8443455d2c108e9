import { eventsApi, urlOf, type TItemEvent } from '@cabinet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { itemKeys } from '../api/use-items.ts';

/**
 * Listens to the workspace's live changes (Server-Sent Events) and refreshes what they touch:
 * the folders whose listings changed, the item itself, the trash, starred and recent lists.
 * EventSource reconnects by itself after a dropped connection or a server restart.
 */
export function useWorkspaceEvents(workspaceId: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!workspaceId) return;
    const source = new EventSource(urlOf(eventsApi.stream, { ws: workspaceId }));
    source.addEventListener('item', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as TItemEvent;
      if (event.type === 'comments.changed') return void client.invalidateQueries({ queryKey: ['comments', event.itemId] });
      for (const parentId of event.parentIds) void client.invalidateQueries({ queryKey: itemKeys.children(workspaceId, parentId) });
      void client.invalidateQueries({ queryKey: itemKeys.item(event.itemId) });
      void client.invalidateQueries({ queryKey: itemKeys.ancestors(event.itemId) });
      for (const key of [itemKeys.trash(workspaceId), itemKeys.starred(workspaceId), itemKeys.recent(workspaceId), ['workspaces']]) void client.invalidateQueries({ queryKey: key });
    });
    // A reconnect may have missed changes: refresh what is on screen.
    source.addEventListener('open', () => void client.invalidateQueries({ queryKey: ['children', workspaceId] }));
    return () => source.close();
  }, [client, workspaceId]);
}
