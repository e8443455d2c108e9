/**
 * Concurrent calls that can share one batch (the same caller, say), run as one: a call arriving
 * while none of its key runs goes at the end of the event loop's turn, with the calls of that
 * turn; calls arriving while a batch runs wait for it and then go together, as the next batch.
 * The wait is bounded: a call waits at most for the end of the turn and for the batch before
 * its own; no timer. Each call gets the slice of the batch's answer that is its own; a batch that
 * fails fails each call in it, and the next batch still runs.
 */
export interface GroupedCalls<A, I, O> {
  (key: string, arg: A, inputs: I[]): Promise<O[]>;
}

interface Waiting<A, I, O> {
  arg: A;
  inputs: I[];
  resolve: (outcomes: O[]) => void;
  reject: (error: unknown) => void;
}

/**
 * `run(arg, inputs)` answers one outcome per input, in order; a batch is run with the `arg` of its
 * first call (calls of one key must be interchangeable in it). A batch takes calls in arrival order
 * while its inputs stay within `max` (a call bigger than that goes alone) and while `apart` says
 * none of a call's inputs must be kept out of a batch holding another (two completions of one
 * upload go in separate batches, as two requests did).
 */
export function groupCalls<A, I, O>(run: (arg: A, inputs: I[]) => Promise<O[]>, o: { max: number; apart?: (input: I) => string }): GroupedCalls<A, I, O> {
  const queues = new Map<string, Waiting<A, I, O>[]>();

  const next = (queue: Waiting<A, I, O>[]): Waiting<A, I, O>[] => {
    const batch: Waiting<A, I, O>[] = [];
    const seen = new Set<string>();
    let size = 0;
    for (let i = 0; i < queue.length;) {
      const call = queue[i]!;
      const ids = o.apart ? call.inputs.map(o.apart) : [];
      if (batch.length && (size + call.inputs.length > o.max || ids.some((id) => seen.has(id)))) {
        i++;
        continue;
      }
      for (const id of ids) seen.add(id);
      size += call.inputs.length;
      batch.push(call);
      queue.splice(i, 1);
    }
    return batch;
  };

  const drain = async (key: string, queue: Waiting<A, I, O>[]): Promise<void> => {
    while (queue.length) {
      const batch = next(queue);
      try {
        const outcomes = await run(
          batch[0]!.arg,
          batch.flatMap((c) => c.inputs),
        );
        let at = 0;
        for (const call of batch) {
          call.resolve(outcomes.slice(at, at + call.inputs.length));
          at += call.inputs.length;
        }
      } catch (error) {
        for (const call of batch) call.reject(error);
      }
    }
    queues.delete(key);
  };

  return (key, arg, inputs) =>
    new Promise<O[]>((resolve, reject) => {
      const queue = queues.get(key);
      const call = { arg, inputs, resolve, reject };
      if (queue) {
        queue.push(call);
        return;
      }
      const fresh = [call];
      queues.set(key, fresh);
      // drain catches every failure of a batch; nothing else in it throws.
      setImmediate(() => void drain(key, fresh));
    });
}
