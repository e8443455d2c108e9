import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { ZItemName } from '@cabinet/contracts';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';

/** Asks for a name (new folder, rename), checks the naming rules before sending, and explains a clash. */
export function NameDialog(props: { title: string; label: string; submitLabel: string; initial?: string; onSubmit: (name: string) => Promise<unknown>; onClose: () => void }) {
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZItemName.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'This name is not allowed');
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
          <TextInput label={props.label} value={name} onChange={(e) => { setName(e.currentTarget.value); setError(null); }} error={error} data-autofocus required />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{props.submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
