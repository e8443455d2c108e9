import { computePosition, flip, offset, shift } from '@floating-ui/dom';
import { ReactRenderer } from '@tiptap/react';
import type { SuggestionOptions, SuggestionProps } from '@tiptap/suggestion';
import { SuggestionMenu, type SuggestionEntry, type SuggestionMenuHandle, type SuggestionMenuProps } from './suggestion-menu.tsx';

/**
 * Shows a suggestion (`/` blocks, `@` people) as a menu under the caret: Tiptap's suggestion
 * plugin says when it opens, changes and closes; the menu is a React component in the editor's tree.
 */
export function suggestionPopup<I>(texts: { label: string; empty: string }, describe: (item: I) => SuggestionEntry): SuggestionOptions<I>['render'] {
  return () => {
    let renderer: ReactRenderer<SuggestionMenuHandle, SuggestionMenuProps<I>> | undefined;
    const propsOf = (p: SuggestionProps<I>): SuggestionMenuProps<I> => ({ ...texts, describe, items: p.items, command: (item) => p.command(item) });
    const place = (p: SuggestionProps<I>) => {
      const rect = p.clientRect?.();
      const element = renderer?.element as HTMLElement | undefined;
      if (!rect || !element) return;
      void computePosition({ getBoundingClientRect: () => rect }, element, {
        placement: 'bottom-start',
        strategy: 'absolute',
        middleware: [offset(6), flip(), shift({ padding: 8 })],
      }).then(({ x, y }) => {
        Object.assign(element.style, { left: `${x}px`, top: `${y}px` });
      });
    };
    const close = () => {
      renderer?.element.remove();
      renderer?.destroy();
      renderer = undefined;
    };
    return {
      onStart(p) {
        renderer = new ReactRenderer(SuggestionMenu<I>, { props: propsOf(p), editor: p.editor });
        Object.assign((renderer.element as HTMLElement).style, { position: 'absolute', zIndex: '300' });
        document.body.appendChild(renderer.element);
        place(p);
      },
      onUpdate(p) {
        renderer?.updateProps(propsOf(p));
        place(p);
      },
      onKeyDown({ event }) {
        if (event.key === 'Escape') {
          close();
          return true;
        }
        return renderer?.ref?.onKeyDown(event) ?? false;
      },
      onExit: close,
    };
  };
}
