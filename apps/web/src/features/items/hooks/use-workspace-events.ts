import { eventsApi, urlOf, type TItemEvent } from '@cabinet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CLIENT_ID } from '../../../lib/api-client.ts';
import { applyChange, applyReset } from '../../../lib/changes.ts';

/**
 * Listens to the workspace's live changes (Server-Sent Events) and refreshes what they touch,
 * through the same mapping as this tab's own writes (which it skips: their answers are in already).
 * EventSource reconnects by itself and names the last change it saw; the server replays what was
 * missed, or says `reset` when it cannot, and then everything shown is fetched again.
 */
export function useWorkspaceEvents(workspaceId: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!workspaceId) return;
    const source = new EventSource(urlOf(eventsApi.stream, { ws: workspaceId }));
    source.addEventListener('item', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as TItemEvent;
      if (event.clientId !== CLIENT_ID) applyChange(client, workspaceId, event);
    });
    source.addEventListener('reset', () => applyReset(client, workspaceId));
    return () => source.close();
  }, [client, workspaceId]);
}
