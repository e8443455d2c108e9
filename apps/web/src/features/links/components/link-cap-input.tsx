import { Group, NativeSelect, NumberInput } from '@mantine/core';
import { useState } from 'react';

const UNITS = { MiB: 1024 ** 2, GiB: 1024 ** 3 } as const;
type Unit = keyof typeof UNITS;

/** The unit a cap reads best in: GiB when it is whole gibibytes, else MiB. */
const unitOf = (bytes: number | null): Unit => (bytes !== null && bytes % UNITS.GiB === 0 ? 'GiB' : 'MiB');

/**
 * A file request's "Maximum total size": all its files together, in MiB or GiB (the app's binary
 * units); empty for no cap. `onChange` hears the bytes (null: no cap) as they are typed.
 */
export function LinkCapInput({
  label,
  description,
  bytes,
  onChange,
}: {
  label: string;
  description?: string;
  bytes: number | null;
  onChange: (bytes: number | null) => void;
}) {
  const [unit, setUnit] = useState<Unit>(unitOf(bytes));
  const [amount, setAmount] = useState<number | ''>(bytes === null ? '' : Math.round((bytes / UNITS[unitOf(bytes)]) * 100) / 100);
  const change = (a: number | '', u: Unit) => {
    setAmount(a);
    setUnit(u);
    onChange(a === '' || a <= 0 ? null : Math.round(a * UNITS[u]));
  };
  return (
    <Group gap={6} align="flex-end" wrap="nowrap">
      <NumberInput
        label={label}
        description={description}
        min={0}
        decimalScale={2}
        value={amount}
        onChange={(v) => change(typeof v === 'number' ? v : '', unit)}
        w={190}
      />
      <NativeSelect
        aria-label={`Unit of ${label.replace(/ \(optional\)$/, '').toLowerCase()}`}
        data={Object.keys(UNITS)}
        value={unit}
        onChange={(e) => change(amount, e.currentTarget.value as Unit)}
        w={80}
      />
    </Group>
  );
}
