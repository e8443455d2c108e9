import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { ZItemName } from '@cabinet/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';

/**
 * Asks for a name (new folder, new document, rename), checks the naming rules before sending, and
 * explains a clash. The name is required: nothing is made under a name the person did not give.
 */
export function NameDialog(props: {
  title: string;
  label: string;
  submitLabel: string;
  initial?: string;
  /** A file's name: the part before its extension is selected, so typing keeps the extension. */
  keepExtension?: boolean;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  useReturnFocus();
  const [name, setName] = useState(props.initial ?? '');
  // The name shown first is selected when the field takes focus, so typing replaces it.
  const selected = useRef(false);
  const selectName = (input: HTMLInputElement) => {
    if (selected.current) return;
    selected.current = true;
    const dot = props.keepExtension ? input.value.lastIndexOf('.') : -1;
    input.setSelectionRange(0, dot > 0 ? dot : input.value.length);
  };
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const refuse = (message: string) => {
    setError(message);
    field.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return refuse('Enter a name');
    const parsed = ZItemName.safeParse(name);
    if (!parsed.success) return refuse(parsed.error.issues[0]?.message ?? 'This name is not allowed');
    setBusy(true);
    try {
      await props.onSubmit(parsed.data);
      props.onClose();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'name_conflict') {
        const suggested = typeof e.details?.suggestedName === 'string' ? e.details.suggestedName : undefined;
        setError(`Something here is already called “${parsed.data}”.${suggested ? ` Try “${suggested}”.` : ''}`);
        if (suggested) setName(suggested);
      } else setError(e instanceof ApiError ? e.message : 'That did not work. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={props.title} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            ref={field}
            label={props.label}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            // Said as soon as it shows, not only when the field is next read out.
            errorProps={{ role: 'alert' }}
            onFocus={(e) => selectName(e.currentTarget)}
            data-autofocus
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
