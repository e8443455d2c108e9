/** The kinds of file whose text is read. */
export type FileKind = 'text' | 'html' | 'xml' | 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'odf' | 'image';

const BY_EXTENSION = new Map<string, FileKind>();
const add = (kind: FileKind, extensions: string) => extensions.split(' ').forEach((ext) => BY_EXTENSION.set(ext, kind));
add(
  'text',
  'txt text md markdown mdx rst adoc asciidoc org tex bib csv tsv tab json jsonl ndjson geojson yaml yml toml ini cfg conf properties env log ' +
    'srt vtt ics vcf sql graphql gql proto diff patch',
);
add(
  'text',
  'js mjs cjs jsx ts mts cts tsx vue svelte css scss sass less py pyi rb go rs java kt kts scala groovy gradle c h cc cpp cxx hpp hh cs fs swift ' +
    'm mm php pl pm r jl lua dart ex exs erl hs elm clj cljs ml sh bash zsh fish ps1 bat cmd tf hcl nix zig',
);
add('html', 'html htm xhtml');
add('xml', 'xml svg xsd xsl xslt rss atom plist kml gpx xlf');
add('pdf', 'pdf');
add('docx', 'docx docm dotx dotm');
add('xlsx', 'xlsx xlsm xltx xltm');
add('pptx', 'pptx pptm potx potm ppsx ppsm');
add('odf', 'odt ods odp ott ots otp');
add('image', 'png jpg jpeg jpe jfif webp tif tiff gif bmp dib');
/** Files named without an extension that are text by convention. */
const TEXT_NAMES = new Set(['makefile', 'dockerfile', 'readme', 'license', 'changelog', 'authors', 'notice']);

const BY_MIME: [RegExp, FileKind][] = [
  [/^(text\/html|application\/xhtml\+xml)$/, 'html'],
  [/^(text|application)\/xml$|\+xml$/, 'xml'],
  // RTF is text/* by name only: its text is buried in control words.
  [/^text\/(?!rtf$)|^application\/(json|x-ndjson|yaml|x-yaml|toml|javascript|x-sh|sql)$|\+json$/, 'text'],
  [/^application\/pdf$/, 'pdf'],
  [/^application\/(vnd\.openxmlformats-officedocument\.wordprocessingml\.|vnd\.ms-word\.(document|template)\.macroenabled)/, 'docx'],
  [/^application\/(vnd\.openxmlformats-officedocument\.spreadsheetml\.|vnd\.ms-excel\.(sheet|template)\.macroenabled)/, 'xlsx'],
  [/^application\/(vnd\.openxmlformats-officedocument\.presentationml\.|vnd\.ms-powerpoint\.(presentation|template|slideshow)\.macroenabled)/, 'pptx'],
  [/^application\/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)/, 'odf'],
  [/^image\/(png|jpeg|webp|tiff|gif|bmp|x-ms-bmp)$/, 'image'],
];

/** The kind a file says it is, by its name's extension, else its media type; null for a type not read. */
export function claimedKind(f: { mimeType: string; name: string }): FileKind | null {
  const name = f.name.toLowerCase();
  const dot = name.lastIndexOf('.');
  const byName = dot > 0 ? BY_EXTENSION.get(name.slice(dot + 1)) : TEXT_NAMES.has(name) ? 'text' : undefined;
  if (byName) return byName;
  const mime = f.mimeType.toLowerCase().split(';')[0]!.trim();
  return BY_MIME.find(([pattern]) => pattern.test(mime))?.[1] ?? null;
}

/** What a file's first bytes prove it is, whatever its name says; a zip's office format is told by its entries later. */
export type Signature = 'pdf' | 'zip' | 'image';

const at = (bytes: Uint8Array, offset: number, sig: number[]) => sig.every((b, i) => bytes[offset + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function signatureOf(bytes: Uint8Array): Signature | null {
  if (at(bytes, 0, ascii('%PDF-'))) return 'pdf';
  if (at(bytes, 0, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (
    at(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    at(bytes, 0, [0xff, 0xd8, 0xff]) ||
    at(bytes, 0, ascii('GIF87a')) ||
    at(bytes, 0, ascii('GIF89a')) ||
    (at(bytes, 0, ascii('RIFF')) && at(bytes, 8, ascii('WEBP'))) ||
    at(bytes, 0, [0x49, 0x49, 0x2a, 0x00]) ||
    at(bytes, 0, [0x4d, 0x4d, 0x00, 0x2a]) ||
    isBmp(bytes)
  ) {
    return 'image';
  }
  return null;
}

/** "BM" alone starts too many text files: a bitmap also has zeros where its header is reserved and a known header size. */
function isBmp(bytes: Uint8Array): boolean {
  if (!at(bytes, 0, ascii('BM')) || bytes.length < 18 || !at(bytes, 6, [0, 0, 0, 0])) return false;
  const dib = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(14);
  return [12, 40, 52, 56, 64, 108, 124].includes(dib);
}
