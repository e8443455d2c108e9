import type { TItemLock } from '@cabinet/contracts';

/** Who holds a lock and with what, as a sentence names them: "Bob (Finder)", "you (Finder)", or "Bob" when the client is not known. */
export function lockHolder(lock: TItemLock, meId: string | undefined): string {
  const who = lock.by.id === meId ? 'you' : lock.by.name || 'someone';
  return lock.client ? `${who} (${lock.client})` : who;
}

/** A lock as a badge says it: "Locked by Bob (Finder)". */
export const lockLabel = (lock: TItemLock, meId: string | undefined) => `Locked by ${lockHolder(lock, meId)}`;
