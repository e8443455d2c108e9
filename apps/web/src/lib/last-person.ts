/**
 * Where this browser notes the person last signed in here (an id, nothing else): a page opened at a document's
 * address reads its snapshot before the server has said who is signed in (ADR 0052). Signing out forgets it.
 */
const PERSON_KEY = 'cabinet:person';

export function lastPerson(): string | undefined {
  try {
    return localStorage.getItem(PERSON_KEY) ?? undefined;
  } catch {
    return undefined; // Storage refused: the snapshot is read once the person is known.
  }
}

export function rememberPerson(userId: string): void {
  try {
    if (localStorage.getItem(PERSON_KEY) !== userId) localStorage.setItem(PERSON_KEY, userId);
  } catch {
    // Storage refused: nothing is remembered.
  }
}

export function forgetPerson(): void {
  try {
    localStorage.removeItem(PERSON_KEY);
  } catch {
    // Storage refused: nothing was remembered.
  }
}
