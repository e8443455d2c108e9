import { useState, type ChangeEvent } from 'react';

/**
 * A text field's value and the error shown under it, cleared as the person types again: spread `input` on the
 * TextInput, set `error` when a submit finds it wanting.
 */
export function useTextField(initial = '') {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setValue(event.currentTarget.value);
    setError(null);
  };
  return { value, setValue, setError, input: { value, error, onChange } };
}
