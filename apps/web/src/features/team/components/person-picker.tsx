import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useMemberSearch } from '../api/use-team.ts';

export interface PersonOption {
  value: string;
  label: string;
}

/**
 * A choice of one person of the workspace, searched on the server as someone types (a workspace
 * may have thousands of people). The person chosen stays shown whatever the search finds next.
 */
export function PersonPicker({
  ws,
  label,
  value,
  onChange,
  placeholder,
  withoutGuests,
  withDeactivated,
  exclude = [],
  clearable,
  required,
}: {
  ws: string;
  label: string;
  value: PersonOption | null;
  onChange: (person: PersonOption | null) => void;
  placeholder?: string;
  withoutGuests?: boolean;
  withDeactivated?: boolean;
  /** People never offered (the person being removed). */
  exclude?: string[];
  clearable?: boolean;
  required?: boolean;
}) {
  const [search, setSearch] = useState('');
  // What is typed is searched, not the chosen person's own label (shown in the field once chosen).
  const [q] = useDebouncedValue(search === value?.label ? '' : search.trim(), 200);
  const found = useMemberSearch(ws, q, { withoutGuests, withDeactivated });
  const people = (found.data ?? []).filter((m) => !exclude.includes(m.userId)).map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }));
  const options = value && !people.some((p) => p.value === value.value) ? [value, ...people] : people;
  return (
    <Select
      label={label}
      placeholder={placeholder}
      clearable={clearable}
      required={required}
      allowDeselect={!required}
      searchable
      data={options}
      value={value?.value ?? null}
      onChange={(_id, option) => onChange(option ? { value: option.value, label: option.label } : null)}
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched what was typed.
      filter={({ options: all }) => all}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'No one by that name or email'}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
