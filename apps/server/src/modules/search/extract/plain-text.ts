import { isUtf8 } from 'node:buffer';
import type { Parser } from 'htmlparser2';
import { MARKUP_HEAD_BYTES, TEXT_HEAD_BYTES } from './limits.ts';
import { markupParser, TooDeep } from './markup.ts';
import type { TextSink } from './text-sink.ts';

/** Decoded and parsed a piece at a time, so reading stops soon after the sink is full. */
const CHUNK_BYTES = 64 * 1024;

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript']);
/** Elements that end a line of text; cells and the like only end a word. */
const BLOCKS = new Set(
  (
    'address article aside blockquote br dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'header hr li main nav ol option p pre section summary table title tr ul'
  ).split(' '),
);
const CELLS = new Set(['td', 'th', 'img', 'input', 'button', 'label']);

/**
 * Text, HTML and XML files: decoded (a BOM first, then a charset the HTML declares, then UTF-8
 * when the bytes are valid UTF-8, else Windows-1252, which is what "latin1" means on the web),
 * and for markup only the text a reader sees. Answers false for binary content (NUL bytes with no
 * UTF-16 BOM to explain them): a file that only has a text file's name.
 */
export function readText(bytes: Uint8Array, kind: 'text' | 'html' | 'xml', sink: TextSink): boolean {
  const head = Math.min(bytes.length, kind === 'text' ? TEXT_HEAD_BYTES : MARKUP_HEAD_BYTES);
  if (head < bytes.length) sink.cut();
  const encoding = encodingOf(bytes.subarray(0, head), kind === 'html');
  if (!encoding) return false;
  if (kind === 'text') {
    decode(encoding, (text) => sink.text(text), sink);
    return true;
  }
  const parser = kind === 'html' ? htmlParser(sink) : xmlParser(sink);
  try {
    decode(encoding, (text) => parser.write(text), sink);
    parser.end();
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    sink.cut();
  }
  return true;
}

interface Encoding {
  label: string;
  bytes: Uint8Array;
}

function encodingOf(bytes: Uint8Array, html: boolean): Encoding | null {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { label: 'utf-8', bytes: bytes.subarray(3) };
  if (startsWith(bytes, [0xff, 0xfe])) return { label: 'utf-16le', bytes: bytes.subarray(2) };
  if (startsWith(bytes, [0xfe, 0xff])) return { label: 'utf-16be', bytes: bytes.subarray(2) };
  if (bytes.includes(0)) return null;
  const declared = html ? declaredCharset(bytes) : undefined;
  if (declared) return { label: declared, bytes };
  // The head of a larger file may end inside a character: that is not a reason to doubt its encoding.
  return { label: isUtf8(withoutPartialCharacter(bytes)) ? 'utf-8' : 'windows-1252', bytes };
}

/** A charset an HTML file declares in a meta element near its start, when the platform decodes it. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  const label = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(start)?.[1];
  if (!label) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

function withoutPartialCharacter(bytes: Uint8Array): Uint8Array {
  let lead = bytes.length - 1;
  while (lead >= 0 && bytes.length - lead <= 3 && (bytes[lead]! & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes;
  const b = bytes[lead]!;
  const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return lead + length > bytes.length ? bytes.subarray(0, lead) : bytes;
}

function decode({ label, bytes }: Encoding, write: (text: string) => void, sink: TextSink): void {
  const decoder = new TextDecoder(label);
  // Streaming to the end drops a character cut in half by the head's end rather than writing U+FFFD.
  for (let at = 0; at < bytes.length && !sink.full; at += CHUNK_BYTES) write(decoder.decode(bytes.subarray(at, at + CHUNK_BYTES), { stream: true }));
}

function htmlParser(sink: TextSink): Parser {
  let hidden = 0;
  return markupParser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden++;
        else if (BLOCKS.has(name)) sink.line();
        else if (CELLS.has(name)) sink.space();
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) sink.line();
        else if (CELLS.has(name)) sink.space();
      },
      ontext(text) {
        if (hidden === 0) sink.text(text);
      },
    },
    false,
  );
}

/** XML's text nodes and CDATA; an element's end also ends a word, so `<a>x</a><b>y</b>` is two. */
function xmlParser(sink: TextSink): Parser {
  return markupParser({ ontext: (text) => sink.text(text), onclosetag: () => sink.space() }, true);
}

const startsWith = (bytes: Uint8Array, sig: number[]) => sig.every((b, i) => bytes[i] === b);
