import { MAX_EXTRACTED_CHARS } from './limits.ts';

/** A file the extractor reads but cannot read this time: `reason` is shown to people in the details panel. */
export class ExtractFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

// Control characters (C0 but tab and line breaks, DEL, C1), noncharacters and the two private-use
// characters snippets are marked with (search-query's MARK_START and MARK_END; icon fonts in PDFs
// map glyphs there too) separate words; soft hyphens (they split words in PDFs), byte order marks
// and halves of surrogate pairs are dropped. None is text to search, and PostgreSQL's text rejects NUL.
// eslint-disable-next-line no-control-regex
const SEPARATING = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ue000\ue001\ufffe\uffff]/g;
const DROPPED = /[\u00ad\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SPACES = /\s+/g;
const BREAK = /[\n\r\u2028\u2029\f\v]/;

/**
 * Collects a file's or a document's text as the index takes it: control characters dropped, each run of
 * whitespace made one space (or one line break when it held one), and at most
 * MAX_EXTRACTED_CHARS UTF-16 code units. Readers ask `full` and stop reading there, so a large file
 * costs no more than its first MiB of text.
 */
export class TextSink {
  private readonly parts: string[] = [];
  private length = 0;
  /** The separator owed before the next text: whitespace is written only between words. */
  private pending: '' | ' ' | '\n' = '';
  private capped = false;
  /** Only part of the file was read (its head, some of its pages). */
  private partial = false;

  /** The cap is reached: nothing more is taken. */
  get full(): boolean {
    return this.capped;
  }

  /** Adds text as it appears in the file. */
  text(raw: string): void {
    if (this.capped || raw.length === 0) return;
    const clean = raw
      .replace(SEPARATING, ' ')
      .replace(DROPPED, '')
      .replace(SPACES, (space) => (BREAK.test(space) ? '\n' : ' '));
    // Whitespace at either end joins the separators around this piece.
    const first = clean[0];
    const last = clean.length > 1 ? clean[clean.length - 1] : undefined;
    const start = first === ' ' || first === '\n' ? 1 : 0;
    const end = last === ' ' || last === '\n' ? clean.length - 1 : clean.length;
    if (start === 1) this.separate(first as ' ' | '\n');
    if (end > start) this.append(clean.slice(start, end));
    if (end < clean.length) this.separate(last as ' ' | '\n');
  }

  /** Ends a word (a table cell, a tab stop): the next text does not join it. */
  space(): void {
    this.separate(' ');
  }

  /** Ends a line (a paragraph, a row, a page). */
  line(): void {
    this.separate('\n');
  }

  /** Marks the text as cut short for a reason other than the cap (the file was read only in part). */
  cut(): void {
    this.partial = true;
  }

  result(): { text: string; truncated: boolean } {
    return { text: this.parts.join(''), truncated: this.capped || this.partial };
  }

  private separate(kind: ' ' | '\n'): void {
    if (this.length > 0 && this.pending !== '\n') this.pending = kind;
  }

  private append(text: string): void {
    if (this.capped) return;
    const piece = this.pending + text;
    this.pending = '';
    const room = MAX_EXTRACTED_CHARS - this.length;
    if (piece.length <= room) {
      this.parts.push(piece);
      this.length += piece.length;
      return;
    }
    // Cut at the cap, but never between the halves of a surrogate pair.
    const end = /[\ud800-\udbff]/.test(piece[room - 1] ?? '') ? room - 1 : room;
    this.parts.push(piece.slice(0, end));
    this.length += end;
    this.capped = true;
  }
}
