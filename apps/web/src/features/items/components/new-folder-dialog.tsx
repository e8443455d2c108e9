import type { TWorkspace } from '@cabinet/contracts';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { NameDialog } from './name-dialog.tsx';

/** Asks a new folder's name and makes it in `parentId`. */
export function NewFolderDialog({
  workspace,
  parentId,
  onClose,
  onCreated,
}: {
  workspace: TWorkspace;
  parentId: string;
  onClose: () => void;
  onCreated?: () => void;
}) {
  const m = useItemMutations(workspace.id);
  return (
    <NameDialog
      title="New folder"
      label="Folder name"
      submitLabel="Create"
      onClose={onClose}
      onSubmit={async (name) => {
        await m.createFolder.mutateAsync({ parentId, name });
        onCreated?.();
      }}
    />
  );
}
