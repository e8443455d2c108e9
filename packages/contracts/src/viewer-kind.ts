/**
 * How the file viewer shows a file, told by its name's extension first (a `.ts` file is code, not
 * the `video/mp2t` its type guesses) and else by its media type. Without zod, so the browser's
 * viewer and the server's rule for public links (a file the viewer shows is viewed, not downloaded)
 * read the same list.
 */
export type TViewerKind = 'image' | 'svg' | 'pdf' | 'video' | 'audio' | 'text';

const BY_EXTENSION = new Map<string, TViewerKind>();
const add = (kind: TViewerKind, extensions: string) => extensions.split(' ').forEach((ext) => BY_EXTENSION.set(ext, kind));
add('image', 'png jpg jpeg jpe jfif gif webp avif bmp dib ico');
add('svg', 'svg');
add('pdf', 'pdf');
add('video', 'mp4 m4v webm ogv mov');
add('audio', 'mp3 m4a aac wav wave ogg oga opus flac weba');
add(
  'text',
  'txt text md markdown mdx rst adoc asciidoc org tex bib csv tsv tab json jsonl ndjson geojson yaml yml toml ini cfg conf properties env log ' +
    'srt vtt ics vcf sql graphql gql proto diff patch html htm xhtml xml xsd xsl xslt rss atom plist kml gpx ' +
    'js mjs cjs jsx ts mts cts tsx vue svelte css scss sass less py pyi rb go rs java kt kts scala groovy gradle c h cc cpp cxx hpp hh cs fs swift ' +
    'm mm php pl pm r jl lua dart ex exs erl hs elm clj cljs ml sh bash zsh fish ps1 bat cmd tf hcl nix zig',
);
/** Files named without an extension that are text by convention. */
const TEXT_NAMES = new Set(['makefile', 'dockerfile', 'readme', 'license', 'changelog', 'authors', 'notice']);

const BY_MIME: [RegExp, TViewerKind][] = [
  [/^image\/svg\+xml$/, 'svg'],
  [/^image\/(png|jpeg|gif|webp|avif|bmp|x-ms-bmp|x-icon|vnd\.microsoft\.icon)$/, 'image'],
  [/^application\/pdf$/, 'pdf'],
  [/^video\/(mp4|webm|ogg|quicktime)$/, 'video'],
  [/^audio\/(mpeg|mp4|aac|wav|x-wav|wave|ogg|opus|flac|x-flac|webm)$/, 'audio'],
  // RTF is text/* by name only: its text is buried in control words.
  [/^text\/(?!rtf$)|^application\/(json|x-ndjson|yaml|x-yaml|toml|javascript|x-sh|sql|xml)$|\+json$|\+xml$/, 'text'],
];

/** The extension of a file name, lower-case, without the dot ('' for none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** How the viewer shows a file of this name and type; null when it has no preview of its own (the "Download" card). */
export function viewerKind(file: { name: string; mimeType: string | null }): TViewerKind | null {
  const ext = extensionOf(file.name);
  const byName = ext ? BY_EXTENSION.get(ext) : TEXT_NAMES.has(file.name.toLowerCase()) ? 'text' : undefined;
  if (byName) return byName;
  const mime = (file.mimeType ?? '').toLowerCase().split(';')[0]!.trim();
  return BY_MIME.find(([pattern]) => pattern.test(mime))?.[1] ?? null;
}
