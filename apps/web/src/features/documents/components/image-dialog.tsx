import { Button, Divider, FileButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { isSafeUrl } from '@cabinet/doc-schema';
import { useState } from 'react';

/**
 * Puts an image into the document: a picture from this computer (uploaded into the document, so
 * it is shared exactly as the document is) or one from the web, with a description for people who
 * cannot see it.
 */
export function ImageDialog({
  onInsert,
  onUpload,
  onClose,
}: {
  onInsert: (image: { src: string; alt: string }) => void;
  onUpload: (file: File) => void;
  onClose: () => void;
}) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const [error, setError] = useState<string>();
  return (
    <Modal opened onClose={onClose} title="Insert image" centered>
      <Stack>
        <FileButton accept="image/*" onChange={(file) => file && onUpload(file)}>
          {(props) => (
            <Button {...props} variant="light" leftSection={<IconUpload aria-hidden size={16} />} data-autofocus>
              Upload from this computer
            </Button>
          )}
        </FileButton>
        <Divider label="or from the web" labelPosition="center" />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!isSafeUrl(src.trim()) || !/^(https?:|\/)/.test(src.trim())) return setError('Enter the image’s web address (https://…).');
            onInsert({ src: src.trim(), alt: alt.trim() });
          }}
        >
          <Stack>
            <TextInput
              label="Image address"
              placeholder="https://example.com/picture.png"
              value={src}
              onChange={(e) => (setSrc(e.currentTarget.value), setError(undefined))}
              error={error}
            />
            <TextInput
              label="Description"
              description="Read aloud to people who cannot see the image"
              value={alt}
              onChange={(e) => setAlt(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit">Insert</Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
