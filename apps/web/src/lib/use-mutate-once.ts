import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useRef } from 'react';

/**
 * A mutation's `mutate` that does nothing while a call it made is in flight: for the buttons that
 * make something. The button is drawn busy (`isPending`) only after the click's task, and both
 * clicks of a double click (or a second Enter) can come before that; this holds from the first.
 */
export function useMutateOnce<TData, TError, TVariables, TOnMutate>(mutation: UseMutationResult<TData, TError, TVariables, TOnMutate>) {
  const inFlight = useRef(false);
  return (variables: TVariables, options?: MutateOptions<TData, TError, TVariables, TOnMutate>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(variables, {
      ...options,
      onSettled: (...settled) => {
        inFlight.current = false;
        options?.onSettled?.(...settled);
      },
    });
  };
}
