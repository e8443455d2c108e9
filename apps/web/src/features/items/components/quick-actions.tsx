import { IconFilePlus, IconFolderPlus, IconUpload, IconUserPlus } from '@tabler/icons-react';
import type { TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useUploaderPromise } from '../../uploads/hooks/use-uploader.ts';

// Fetched when the person first asks for one: the name dialog brings the form and its validation.
const NewDocumentDialog = lazy(() => import('./new-document-dialog.tsx').then((m) => ({ default: m.NewDocumentDialog })));
const NewFolderDialog = lazy(() => import('./new-folder-dialog.tsx').then((m) => ({ default: m.NewFolderDialog })));
const InviteDialog = lazy(() => import('../../team/components/invite-dialog.tsx').then((m) => ({ default: m.InviteDialog })));

export interface QuickAction {
  id: 'upload' | 'new-document' | 'new-folder' | 'invite';
  title: string;
  /** What it does, in a sentence (Home's cards). */
  text: string;
  /** Where it puts things, in a few words (the palette), when it puts them somewhere. */
  where?: string;
  icon: typeof IconUpload;
  run: () => void;
}

/**
 * The quick actions — upload files, a new document, a new folder, invite people — as Home's cards
 * and the search palette offer them, with one code path: what each does, and the hidden file
 * chooser and dialogs they open (`element`, to be rendered where it stays while they are open).
 * Things go into `target` (My files on Home; in the palette, the folder shown when the person may
 * add to it); without one only inviting is offered, and only to those who manage its members.
 */
export function useQuickActions(
  workspace: TWorkspace,
  target: { id: string; name: string; to: string } | undefined,
): { actions: QuickAction[]; element: ReactNode } {
  const uploader = useUploaderPromise();
  const navigate = useNavigate();
  const here = useLocation().pathname;
  const inputId = useId();
  const [open, setOpen] = useState<'document' | 'folder' | 'invite' | null>(null);
  const close = () => setOpen(null);
  // Files and folders appear where the person can see them arrive.
  const show = (to: string) => {
    if (here !== to) void navigate(to);
  };
  // The hidden file chooser, looked up when the action runs (Home and the palette run it long after this render).
  const chooseFiles = () => document.getElementById(inputId)?.click();
  const actions: QuickAction[] = [];
  if (target) {
    const { name } = target;
    actions.push(
      {
        id: 'upload',
        title: 'Upload files',
        text: `Into ${name}: any size, straight to storage, resumable after a dropped connection.`,
        where: `Into ${name}`,
        icon: IconUpload,
        run: chooseFiles,
      },
      {
        id: 'new-document',
        title: 'New document',
        text: `A new document in ${name}, to edit together in real time, with comments and history.`,
        where: `In ${name}`,
        icon: IconFilePlus,
        run: () => setOpen('document'),
      },
      { id: 'new-folder', title: 'New folder', text: `A new folder in ${name}.`, where: `In ${name}`, icon: IconFolderPlus, run: () => setOpen('folder') },
    );
  }
  if (workspace.abilities.manageMembers)
    actions.push({
      id: 'invite',
      title: 'Invite people',
      text: 'Ask colleagues to join by email, or make an invite link to send yourself.',
      icon: IconUserPlus,
      run: () => setOpen('invite'),
    });
  const element = (
    <>
      {target && (
        <input
          id={inputId}
          type="file"
          multiple
          hidden
          aria-label={`Upload into ${target.name}`}
          onChange={(e) => {
            const picked = Array.from(e.currentTarget.files ?? []);
            // Files, not a folder's tree: each goes straight into the target.
            if (picked.length > 0)
              void uploader.then((u) =>
                u.add(
                  workspace.id,
                  target.id,
                  picked.map((file) => ({ file, path: [] })),
                ),
              );
            e.currentTarget.value = '';
            show(target.to);
          }}
        />
      )}
      {open && (
        <Suspense fallback={null}>
          {open === 'document' && target && <NewDocumentDialog workspace={workspace} parentId={target.id} onClose={close} />}
          {open === 'folder' && target && <NewFolderDialog workspace={workspace} parentId={target.id} onClose={close} onCreated={() => show(target.to)} />}
          {open === 'invite' && <InviteDialog workspace={workspace} onClose={close} />}
        </Suspense>
      )}
    </>
  );
  return { actions, element };
}
