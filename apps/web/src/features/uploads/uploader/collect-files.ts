export interface PickedFile {
  file: File;
  /** Folders between the drop target and the file. */
  path: string[];
}

/** Files from an `<input type=file>`; a folder pick (webkitdirectory) carries each file's relative path. */
export function filesFromInput(list: FileList | File[]): PickedFile[] {
  return Array.from(list).map((file) => {
    const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath ?? '';
    return { file, path: relative ? relative.split('/').slice(0, -1) : [] };
  });
}

/** Everything dropped: files, and folders walked to the bottom (their structure is recreated). */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => !!entry);
  if (entries.length === 0) return filesFromInput(data.files);
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, [], out);
  return out;
}

async function walk(entry: FileSystemEntry, path: string[], out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, path });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const here = [...path, entry.name];
  // readEntries answers in batches (of 100 in Chromium) until it answers none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, here, out);
  }
  // An empty folder is still recreated.
  if (!out.some((f) => f.path.length >= here.length && here.every((p, i) => f.path[i] === p))) out.push({ file: emptyFolderMarker, path: here });
}

/** Stands for an empty folder in a drop: the uploader makes the folder and uploads nothing. */
export const emptyFolderMarker = new File([], '.cabinet-empty-folder');
