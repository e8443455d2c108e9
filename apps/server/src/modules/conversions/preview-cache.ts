/**
 * Converted files kept in this process for the next call, by what they were made from (a version's
 * SHA-256 and the conversion), within a budget of bytes: the least recently used go first. The
 * same bytes under any name, version or workspace share an entry (they convert the same). A
 * conversion under way is shared by every call that asks for it meanwhile.
 */
export class PreviewCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private readonly pending = new Map<string, Promise<T>>();
  private used = 0;

  constructor(
    private readonly budgetBytes: number,
    private readonly sizeOf: (value: T) => number,
  ) {}

  get size(): number {
    return this.used;
  }

  async get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const running = this.pending.get(key);
    if (running) return running;
    const made = make().then(
      (value) => {
        this.pending.delete(key);
        this.put(key, value);
        return value;
      },
      (error: unknown) => {
        this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, made);
    return made;
  }

  private put(key: string, value: T): void {
    const bytes = this.sizeOf(value);
    // One entry may take at most a quarter of the budget, so a large workbook does not empty it of everything else.
    if (bytes > this.budgetBytes / 4) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }
}
