import { readStored, removeStored, writeStored } from './stored.ts';

/**
 * Where this browser notes the person last signed in here (an id, nothing else): a page opened at a document's
 * address reads its snapshot before the server has said who is signed in (ADR 0052). Signing out forgets it. With
 * storage refused nothing is noted, and the snapshot is read once the person is known.
 */
const PERSON_KEY = 'cabinet:person';

export const lastPerson = (): string | undefined => readStored(PERSON_KEY);

export function rememberPerson(userId: string): void {
  if (lastPerson() !== userId) writeStored(PERSON_KEY, userId);
}

export const forgetPerson = (): void => removeStored(PERSON_KEY);
