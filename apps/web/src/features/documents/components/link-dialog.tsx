import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { isSafeUrl } from '@cabinet/doc-schema';
import { useState } from 'react';

/** Adds, changes or removes the link on the selection. Only web and mail addresses are taken. */
export function LinkDialog({
  initial,
  onApply,
  onRemove,
  onClose,
}: {
  initial: string;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [href, setHref] = useState(initial);
  const [error, setError] = useState<string>();
  const submit = () => {
    const value = /^[a-z][a-z0-9+.-]*:|^\/|^#/i.test(href.trim()) ? href.trim() : `https://${href.trim()}`;
    if (!href.trim() || !isSafeUrl(value)) return setError('Enter a web address (https://…) or an email address (mailto:…).');
    onApply(value);
  };
  return (
    <Modal opened onClose={onClose} title={initial ? 'Edit link' : 'Add link'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput
            label="Link address"
            placeholder="https://example.com"
            value={href}
            onChange={(e) => (setHref(e.currentTarget.value), setError(undefined))}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end">
            {initial && (
              <Button variant="subtle" color="red" onClick={onRemove}>
                Remove link
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Apply</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
