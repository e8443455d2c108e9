/** Prints one figure against its baseline, with the spread over runs so machine noise shows. */
export function report(name: string, unit: string, values: number[], baselines: number[]): void {
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
  };
  const v = stats(values);
  const b = stats(baselines);
  const f = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(3));
  console.log(`bench: ${name} value=${f(v.median)}${unit} baseline=${f(b.median)}${unit} ratio=${(v.median / b.median).toFixed(2)}`);
  console.log(`  value    min=${f(v.min)}${unit} median=${f(v.median)}${unit} max=${f(v.max)}${unit} (${values.length} runs)`);
  console.log(`  baseline min=${f(b.min)}${unit} median=${f(b.median)}${unit} max=${f(b.max)}${unit} (${baselines.length} runs)`);
}

/** The nearest-rank percentile: the smallest value at least `p` % of the values are at or below. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
