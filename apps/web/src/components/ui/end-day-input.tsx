import { TextInput } from '@mantine/core';
import { useState } from 'react';

/** A day from a date field ("2026-12-31") as the end of that day where the person is; and back. */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();
export const dayOf = (iso: string | null | Date) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The day `n` days from now. */
export const inDays = (n: number) => dayOf(new Date(Date.now() + n * 86_400_000));

/**
 * The last day something lasts (a grant, a link), changed in place. Typing a date changes nothing
 * yet — a date field passes through half-typed days — the change is sent when the field is left
 * or Enter is pressed, and only for a day still to come (and not after `max`), or for an empty
 * field when an end is not `required`.
 */
export function EndDayInput({
  label,
  value,
  onCommit,
  max,
  required,
  disabled,
}: {
  label: string;
  value: string | null;
  onCommit: (endsAt: string | null) => void;
  max?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const [draft, setDraft] = useState(dayOf(value));
  const [problem, setProblem] = useState<string>();
  const commit = () => {
    if (draft === dayOf(value)) return setProblem(undefined);
    if (!draft) {
      if (required) return setProblem('Choose the last day');
      setProblem(undefined);
      return onCommit(null);
    }
    const ends = /^\d{4}-\d{2}-\d{2}$/.test(draft) ? new Date(`${draft}T23:59:59`) : null;
    if (!ends || Number.isNaN(ends.getTime()) || ends.getTime() <= Date.now()) return setProblem('Choose a day still to come');
    if (max && draft > max) return setProblem(`Choose a day until ${new Date(`${max}T12:00:00`).toLocaleDateString()}`);
    setProblem(undefined);
    onCommit(ends.toISOString());
  };
  return (
    <TextInput
      disabled={disabled}
      size="xs"
      w={150}
      type="date"
      aria-label={label}
      min={inDays(1)}
      max={max}
      value={draft}
      error={problem}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
    />
  );
}
