import { eventsApi, urlOf, type TGroupEvent, type TItemEvent } from '@cabinet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { askWhoWhenRefused, CLIENT_ID } from '../../../lib/api-client.ts';
import { applyChange, applyGroupChange, applyNotice, applyReset } from '../../../lib/changes.ts';
import { changesShownSince } from '../../../lib/last-change.ts';

/**
 * Listens to the workspace's live changes (Server-Sent Events) and refreshes what they touch,
 * through the same mapping as this tab's own writes (which it skips: their answers are in already).
 * EventSource reconnects by itself and names the last change it saw; the server replays what was
 * missed, or says `reset` when it cannot, and then everything shown is fetched again. A first
 * connection starts where the answers the page shows left off (`after`, ADR 0046): it replays only
 * the changes since, so what the page has just fetched is not fetched a second time. The stream also says when the person's
 * notifications change, so the bell's count follows at once.
 */
export function useWorkspaceEvents(workspaceId: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!workspaceId) return;
    const source = new EventSource(urlOf(eventsApi.stream, { ws: workspaceId }, { after: changesShownSince() }));
    source.addEventListener('item', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as TItemEvent;
      if (event.clientId !== CLIENT_ID) applyChange(client, workspaceId, event);
    });
    source.addEventListener('group', (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as TGroupEvent;
      if (event.clientId !== CLIENT_ID) applyGroupChange(client, workspaceId, event.type);
    });
    askWhoWhenRefused(source);
    source.addEventListener('reset', () => applyReset(client, workspaceId));
    // The person's notifications (of any workspace) changed.
    source.addEventListener('notifications', () => applyNotice(client));
    return () => source.close();
  }, [client, workspaceId]);
}
