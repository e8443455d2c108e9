/*
 * Names of items as paths on a disk or in a zip that anyone unpacks: one segment each, safe on any file system, and
 * unique in their folder as a case-insensitive disk compares them (an export, ADR 0064; a zip download).
 */

/** Room left in a name's 255 bytes for a " (12)" that keeps it unique, and a document's ".md". */
const NAME_BYTES = 240;

/**
 * An item's name as one segment of a path on any disk (Linux, macOS, Windows, exFAT): no `/ \\ : < > " | ? *` or
 * control characters, no name of only dots, none ending in a dot or a space, none Windows keeps for itself (`CON`,
 * `NUL`, `COM1`…); cut, before its extension, to leave room for a " (12)" and a ".md".
 */
export function safeSegment(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  let safe = name.normalize('NFC').replace(/[/\\:<>"|?*\u0000-\u001f\u007f-\u009f]/g, '_');
  if (/^\.+$/.test(safe)) safe = '_'.repeat(safe.length);
  safe = safe.replace(/[. ]+$/, (end) => '_'.repeat(end.length));
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(safe)) safe = `_${safe}`;
  const dot = safe.lastIndexOf('.');
  const ext = dot > 0 && safe.length - dot <= 16 ? safe.slice(dot) : '';
  let stem = ext ? safe.slice(0, dot) : safe;
  // Whole characters: a pair of surrogates is never cut in two.
  while (Buffer.byteLength(stem + ext) > NAME_BYTES) stem = Array.from(stem).slice(0, -1).join('');
  return stem + ext || '_';
}

/** Names taken in each folder of an export or a zip, compared as a case-insensitive disk compares them; a taken one gets " (2)" before its extension. */
export class Names {
  private readonly taken = new Map<string, Set<string>>();

  /** `name` (or a free variant) in `dir`, taken, returned with `dir`; `whole` keeps a name's dots (a folder's), `suffix` is reserved with it. */
  take(dir: string, name: string, whole: boolean, suffix = ''): string {
    const used = this.taken.get(dir) ?? new Set<string>();
    this.taken.set(dir, used);
    const dot = whole || suffix ? -1 : name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()) || (suffix && used.has(`${candidate}${suffix}`.toLowerCase())); n++) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    if (suffix) used.add(`${candidate}${suffix}`.toLowerCase());
    return dir ? `${dir}/${candidate}` : candidate;
  }
}
