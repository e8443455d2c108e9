import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { isSafeUrl } from '@cabinet/doc-schema';
import { useState } from 'react';

/** Puts an image from the web into the document, with a description for people who cannot see it. */
export function ImageDialog({ onInsert, onClose }: { onInsert: (image: { src: string; alt: string }) => void; onClose: () => void }) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [error, setError] = useState<string>();
  return (
    <Modal opened onClose={onClose} title="Insert image" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!isSafeUrl(src.trim()) || !/^(https?:|\/)/.test(src.trim())) return setError('Enter the image’s web address (https://…).');
          onInsert({ src: src.trim(), alt: alt.trim() });
        }}
      >
        <Stack>
          <TextInput label="Image address" placeholder="https://example.com/picture.png" value={src} onChange={(e) => (setSrc(e.currentTarget.value), setError(undefined))} error={error} data-autofocus />
          <TextInput label="Description" description="Read aloud to people who cannot see the image" value={alt} onChange={(e) => setAlt(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Insert</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
