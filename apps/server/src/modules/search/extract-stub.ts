import type { WorkerPool } from '../../infra/workers/pool.ts';
export const MAX_EXTRACTED_CHARS = 1_048_576;
export type Extraction = { state: 'ready'; text: string; truncated: boolean } | { state: 'unsupported' } | { state: 'failed'; reason: string };
export function bytesNeeded(f: { mimeType: string; name: string; size: number }): number | null | 'tooLarge' {
  return /\.(txt|csv|pdf)$/.test(f.name) ? Math.min(f.size, 4 << 20) : null;
}
export async function extractText(_w: WorkerPool, f: { bytes: Uint8Array }): Promise<Extraction> {
  if (f.bytes.includes(0)) return { state: 'unsupported' };
  return { state: 'ready', text: new TextDecoder().decode(f.bytes), truncated: false };
}
