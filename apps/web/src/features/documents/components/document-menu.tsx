import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconFileTypeHtml, IconFileTypePdf, IconMarkdown, IconPencil, IconUserShare } from '@tabler/icons-react';
import { documentsApi, urlOf, type TItemAbilities } from '@cabinet/contracts';

/** What can be done with the document as a whole, as its abilities allow: share it, rename it, and download it in another format. */
export function DocumentMenu({
  documentId,
  abilities,
  onRename,
  onShare,
}: {
  documentId: string;
  abilities: TItemAbilities;
  onRename: () => void;
  onShare: () => void;
}) {
  const icon = { 'aria-hidden': true, size: 16 } as const;
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Document actions">
          <IconDots aria-hidden size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {abilities.share && (
          <Menu.Item leftSection={<IconUserShare {...icon} />} onClick={onShare}>
            Share…
          </Menu.Item>
        )}
        {abilities.edit && (
          <Menu.Item leftSection={<IconPencil {...icon} />} onClick={onRename}>
            Rename
          </Menu.Item>
        )}
        {(abilities.edit || abilities.share) && abilities.download && <Menu.Divider />}
        {abilities.download && (
          <>
            <Menu.Label>Export</Menu.Label>
            <Menu.Item
              component="a"
              href={urlOf(documentsApi.export, { id: documentId }, { format: 'markdown' })}
              download
              leftSection={<IconMarkdown {...icon} />}
            >
              Markdown (.md)
            </Menu.Item>
            <Menu.Item
              component="a"
              href={urlOf(documentsApi.export, { id: documentId }, { format: 'html' })}
              download
              leftSection={<IconFileTypeHtml {...icon} />}
            >
              Web page (.html)
            </Menu.Item>
            <Menu.Item
              component="a"
              href={urlOf(documentsApi.export, { id: documentId }, { format: 'pdf' })}
              download
              leftSection={<IconFileTypePdf {...icon} />}
            >
              PDF (.pdf)
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
