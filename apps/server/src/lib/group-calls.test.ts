import { describe, expect, it } from 'vitest';
import { groupCalls } from './group-calls.ts';

/** A batch runner the test ends when it wants: `batches` lists each batch's inputs, `finish` ends the oldest running one. */
function runner() {
  const batches: string[][] = [];
  const ends: Array<(error?: Error) => void> = [];
  return {
    batches,
    run: (_arg: string, inputs: string[]) =>
      new Promise<string[]>((resolve, reject) => {
        batches.push(inputs);
        ends.push((error) => (error ? reject(error) : resolve(inputs.map((i) => `${i}!`))));
      }),
    finish: async (error?: Error) => {
      ends.shift()!(error);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCalls', () => {
  it('runs the calls of one turn of the event loop together, and those arriving while it runs as the next batch, each answered its own slice', async () => {
    const r = runner();
    const call = groupCalls(r.run, { max: 100 });
    const a = call('k', 'x', ['a']);
    const b = call('k', 'x', ['b1', 'b2']);
    const c = call('k', 'x', ['c']);
    const other = call('other', 'x', ['o']);
    await turn();
    expect(r.batches).toEqual([['a', 'b1', 'b2', 'c'], ['o']]);
    const d = call('k', 'x', ['d']);
    const e = call('k', 'x', ['e']);
    await turn();
    expect(r.batches).toHaveLength(2);
    await r.finish();
    expect(await a).toEqual(['a!']);
    expect(await b).toEqual(['b1!', 'b2!']);
    expect(await c).toEqual(['c!']);
    expect(r.batches).toEqual([['a', 'b1', 'b2', 'c'], ['o'], ['d', 'e']]);
    await r.finish();
    await r.finish();
    expect(await other).toEqual(['o!']);
    expect(await Promise.all([d, e])).toEqual([['d!'], ['e!']]);
  });

  it('keeps a batch within its bound and inputs that must be apart in separate batches, in arrival order', async () => {
    const r = runner();
    const call = groupCalls(r.run, { max: 3, apart: (i) => i[0]! });
    const first = call('k', 'x', ['a']);
    await turn();
    const waiting = [call('k', 'x', ['a']), call('k', 'x', ['b', 'c']), call('k', 'x', ['d', 'e']), call('k', 'x', ['f'])];
    await r.finish();
    expect(r.batches[1]).toEqual(['a', 'b', 'c']);
    await r.finish();
    expect(r.batches[2]).toEqual(['d', 'e', 'f']);
    await r.finish();
    await first;
    expect(await Promise.all(waiting)).toEqual([['a!'], ['b!', 'c!'], ['d!', 'e!'], ['f!']]);
  });

  it('fails each call of a failed batch, and runs the next batch all the same', async () => {
    const r = runner();
    const call = groupCalls(r.run, { max: 100 });
    const a = call('k', 'x', ['a']);
    await turn();
    const b = call('k', 'x', ['b']);
    const failed = expect(a).rejects.toThrow('database gone');
    await r.finish(new Error('database gone'));
    await failed;
    await r.finish();
    expect(await b).toEqual(['b!']);
  });
});
