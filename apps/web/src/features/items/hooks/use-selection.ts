import { useCallback, useState } from 'react';

/**
 * Which items of a list are selected, the way file managers do it: click selects one,
 * Ctrl/⌘-click toggles one, Shift-click selects the range from the last clicked item.
 */
export function useSelection(ids: string[]) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [anchor, setAnchor] = useState<string>();

  const select = useCallback(
    (id: string, how: { toggle?: boolean; range?: boolean } = {}) => {
      if (how.range && anchor) {
        const [a, b] = [ids.indexOf(anchor), ids.indexOf(id)].sort((x, y) => x - y);
        if (a! >= 0) {
          setSelected(new Set(ids.slice(a, b! + 1)));
          return;
        }
      }
      setAnchor(id);
      setSelected((current) => {
        if (!how.toggle) return new Set([id]);
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [anchor, ids],
  );

  return {
    selected: new Set([...selected].filter((id) => ids.includes(id))),
    select,
    selectAll: () => setSelected(new Set(ids)),
    clear: () => setSelected(new Set()),
  };
}

/** A list's selection and what changes it (useSelection). */
export type Selection = ReturnType<typeof useSelection>;
