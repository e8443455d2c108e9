import type { TWorkspace } from '@cabinet/contracts';
import { useNavigate } from 'react-router';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { useItemLinks } from '../hooks/use-item-links.ts';
import { NameDialog } from './name-dialog.tsx';

/** Asks a new document's name, makes it in `parentId` and opens it. */
export function NewDocumentDialog({ workspace, parentId, onClose }: { workspace: TWorkspace; parentId: string; onClose: () => void }) {
  const m = useItemMutations(workspace.id);
  const linkTo = useItemLinks(workspace);
  const navigate = useNavigate();
  return (
    <NameDialog
      title="New document"
      label="Document name"
      submitLabel="Create"
      onClose={onClose}
      onSubmit={async (name) => {
        const doc = await m.createDocument.mutateAsync({ parentId, name });
        void navigate(linkTo(doc)!);
      }}
    />
  );
}
