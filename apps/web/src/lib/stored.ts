/**
 * What this browser keeps in its Web Storage, read and written without throwing: storage may be refused (private mode,
 * a full quota, a sandboxed frame) or hold what another version wrote. Whatever fails reads as nothing kept and writes
 * nothing; each caller says what the page does then. Small and free of imports: the signed-in home loads it.
 */
type Area = 'local' | 'session';

const area = (where: Area): Storage => (where === 'local' ? localStorage : sessionStorage);

/** The text kept under `key`, or undefined when there is none or storage is refused. */
export function readStored(key: string, where: Area = 'local'): string | undefined {
  try {
    return area(where).getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The value kept as JSON under `key`, or undefined when there is none, it is not JSON, or storage is refused. */
export function readStoredJson<T>(key: string, where: Area = 'local'): T | undefined {
  const raw = readStored(key, where);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** Keeps `text` under `key`; nothing happens when storage is refused. */
export function writeStored(key: string, text: string, where: Area = 'local'): void {
  try {
    area(where).setItem(key, text);
  } catch {
    // Refused: nothing is kept.
  }
}

/** Keeps `value` as JSON under `key`; nothing happens when storage is refused. */
export function writeStoredJson(key: string, value: unknown, where: Area = 'local'): void {
  writeStored(key, JSON.stringify(value), where);
}

/** Forgets what is kept under `key`; nothing happens when storage is refused. */
export function removeStored(key: string, where: Area = 'local'): void {
  try {
    area(where).removeItem(key);
  } catch {
    // Refused: nothing was kept.
  }
}
