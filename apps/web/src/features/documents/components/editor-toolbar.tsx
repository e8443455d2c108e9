import { ActionIcon, Divider, Group, Menu, NativeSelect, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBlockquote,
  IconBold,
  IconCode,
  IconColumnInsertRight,
  IconColumnRemove,
  IconH1,
  IconH2,
  IconH3,
  IconItalic,
  IconLink,
  IconList,
  IconListCheck,
  IconListNumbers,
  IconMessagePlus,
  IconPaperclip,
  IconPhoto,
  IconRowInsertBottom,
  IconRowRemove,
  IconSeparatorHorizontal,
  IconSourceCode,
  IconStrikethrough,
  IconTable,
  IconTableOff,
} from '@tabler/icons-react';
import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type ReactNode } from 'react';
import { CODE_LANGUAGES } from '../editor/extensions.ts';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? '⌘' : 'Ctrl+';

function ToolButton({
  label,
  shortcut,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  shortcut?: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={shortcut ? `${label} (${shortcut})` : label} openDelay={400}>
      <ActionIcon
        variant={active ? 'light' : 'subtle'}
        color={active ? undefined : 'gray'}
        size="md"
        aria-label={label}
        aria-pressed={active === undefined ? undefined : active}
        disabled={disabled}
        // Keep the editor's selection: the button acts on it.
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

const CONTROLS = 'button:not(:disabled), select:not(:disabled)';

/**
 * The WAI-ARIA toolbar pattern: the toolbar is one Tab stop, Left/Right move between its controls
 * (wrapping) and Home/End go to the first and last. The control last used keeps tabindex=0, so Tab
 * comes back to it; the others have -1. Controls come and go (the code language, table options)
 * and turn on and off (Undo), so the tab stops are laid out again after every render.
 */
function RovingToolbar({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const current = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => layOut(ref.current, current));
  const onFocus = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement && e.target.matches(CONTROLS) && ref.current?.contains(e.target)) {
      current.current = e.target;
      layOut(ref.current, current);
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) return;
    const all = controlsOf(ref.current);
    const at = all.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : -1) + all.length) % all.length;
    e.preventDefault();
    all[next]!.focus();
  };
  return (
    <Group gap={2} role="toolbar" aria-label={label} wrap="wrap" ref={ref} onFocus={onFocus} onKeyDown={onKeyDown}>
      {children}
    </Group>
  );
}

const controlsOf = (toolbar: HTMLElement | null) => [...(toolbar?.querySelectorAll<HTMLElement>(CONTROLS) ?? [])];

function layOut(toolbar: HTMLElement | null, current: { current: HTMLElement | null }) {
  const all = controlsOf(toolbar);
  if (!current.current || !all.includes(current.current)) current.current = all[0] ?? null;
  for (const el of all) el.tabIndex = el === current.current ? 0 : -1;
}

/** Formatting for the selection and the current block; every button is named for screen readers and says whether it is on. */
export function EditorToolbar({
  editor,
  onLink,
  onImage,
  onFile,
  onComment,
}: {
  editor: Editor;
  onLink: () => void;
  onImage: () => void;
  onFile: () => void;
  onComment: () => void;
}) {
  const s = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      link: e.isActive('link'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      tasks: e.isActive('taskList'),
      quote: e.isActive('blockquote'),
      codeBlock: e.isActive('codeBlock'),
      language: (e.getAttributes('codeBlock').language as string | null) ?? '',
      table: e.isActive('table'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const icon = { 'aria-hidden': true, size: 18 } as const;
  return (
    <RovingToolbar label="Formatting">
      <ToolButton label="Undo" shortcut={`${mod}Z`} disabled={!s.canUndo} onClick={() => chain().undo().run()}>
        <IconArrowBackUp {...icon} />
      </ToolButton>
      <ToolButton label="Redo" shortcut={`${mod}Shift+Z`} disabled={!s.canRedo} onClick={() => chain().redo().run()}>
        <IconArrowForwardUp {...icon} />
      </ToolButton>
      <Divider orientation="vertical" mx={4} />
      <ToolButton label="Heading 1" shortcut={`${mod}Alt+1`} active={s.h1} onClick={() => chain().toggleHeading({ level: 1 }).run()}>
        <IconH1 {...icon} />
      </ToolButton>
      <ToolButton label="Heading 2" shortcut={`${mod}Alt+2`} active={s.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
        <IconH2 {...icon} />
      </ToolButton>
      <ToolButton label="Heading 3" shortcut={`${mod}Alt+3`} active={s.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
        <IconH3 {...icon} />
      </ToolButton>
      <Divider orientation="vertical" mx={4} />
      <ToolButton label="Bold" shortcut={`${mod}B`} active={s.bold} onClick={() => chain().toggleBold().run()}>
        <IconBold {...icon} />
      </ToolButton>
      <ToolButton label="Italic" shortcut={`${mod}I`} active={s.italic} onClick={() => chain().toggleItalic().run()}>
        <IconItalic {...icon} />
      </ToolButton>
      <ToolButton label="Strikethrough" shortcut={`${mod}Shift+S`} active={s.strike} onClick={() => chain().toggleStrike().run()}>
        <IconStrikethrough {...icon} />
      </ToolButton>
      <ToolButton label="Inline code" shortcut={`${mod}E`} active={s.code} onClick={() => chain().toggleCode().run()}>
        <IconCode {...icon} />
      </ToolButton>
      <ToolButton label="Link" active={s.link} onClick={onLink}>
        <IconLink {...icon} />
      </ToolButton>
      <ToolButton label="Comment" shortcut={`${mod}Alt+M`} onClick={onComment}>
        <IconMessagePlus {...icon} />
      </ToolButton>
      <Divider orientation="vertical" mx={4} />
      <ToolButton label="Bulleted list" shortcut={`${mod}Shift+8`} active={s.bullets} onClick={() => chain().toggleBulletList().run()}>
        <IconList {...icon} />
      </ToolButton>
      <ToolButton label="Numbered list" shortcut={`${mod}Shift+7`} active={s.numbers} onClick={() => chain().toggleOrderedList().run()}>
        <IconListNumbers {...icon} />
      </ToolButton>
      <ToolButton label="Task list" shortcut={`${mod}Shift+9`} active={s.tasks} onClick={() => chain().toggleTaskList().run()}>
        <IconListCheck {...icon} />
      </ToolButton>
      <Divider orientation="vertical" mx={4} />
      <ToolButton label="Quote" shortcut={`${mod}Shift+B`} active={s.quote} onClick={() => chain().toggleBlockquote().run()}>
        <IconBlockquote {...icon} />
      </ToolButton>
      <ToolButton label="Code block" shortcut={`${mod}Alt+C`} active={s.codeBlock} onClick={() => chain().toggleCodeBlock().run()}>
        <IconSourceCode {...icon} />
      </ToolButton>
      <ToolButton label="Image" onClick={onImage}>
        <IconPhoto {...icon} />
      </ToolButton>
      <ToolButton label="Attach file" onClick={onFile}>
        <IconPaperclip {...icon} />
      </ToolButton>
      <ToolButton label="Divider" onClick={() => chain().setHorizontalRule().run()}>
        <IconSeparatorHorizontal {...icon} />
      </ToolButton>
      {s.table ? (
        <Menu position="bottom-start">
          <Menu.Target>
            <ActionIcon variant="light" size="md" aria-label="Table options">
              <IconTable {...icon} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconRowInsertBottom {...icon} />} onClick={() => chain().addRowAfter().run()}>
              Add row below
            </Menu.Item>
            <Menu.Item leftSection={<IconColumnInsertRight {...icon} />} onClick={() => chain().addColumnAfter().run()}>
              Add column to the right
            </Menu.Item>
            <Menu.Item leftSection={<IconRowRemove {...icon} />} onClick={() => chain().deleteRow().run()}>
              Delete row
            </Menu.Item>
            <Menu.Item leftSection={<IconColumnRemove {...icon} />} onClick={() => chain().deleteColumn().run()}>
              Delete column
            </Menu.Item>
            <Menu.Item color="danger" leftSection={<IconTableOff {...icon} />} onClick={() => chain().deleteTable().run()}>
              Delete table
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : (
        <ToolButton label="Table" onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}>
          <IconTable {...icon} />
        </ToolButton>
      )}
      {s.codeBlock && (
        <NativeSelect
          size="xs"
          aria-label="Code language"
          value={s.language}
          onChange={(e) =>
            chain()
              .updateAttributes('codeBlock', { language: e.currentTarget.value || null })
              .run()
          }
          data={[{ value: '', label: 'Plain text' }, ...CODE_LANGUAGES.map((l) => ({ value: l, label: l }))]}
        />
      )}
    </RovingToolbar>
  );
}
