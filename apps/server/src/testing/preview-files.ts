// Files of each kind the viewer converts, made as their programs write them (reduced to what a
// reader needs), for the tests and the end-to-end specs' uploads.
import { crc32, deflateRawSync } from 'node:zlib';
import { makeZip } from 'client-zip';
import ExcelJS from 'exceljs';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const xmlText = (s: string) => s.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);
const zipOf = async (files: { name: string; input: string | Uint8Array }[]) => new Uint8Array(await new Response(makeZip(files)).arrayBuffer());

/** A picture in a Word or OpenDocument file: its bytes, kept in the file under `name`, or the address it is linked to. */
export type FilePicture = { alt: string } & ({ name: string; bytes: Uint8Array } | { url: string });

/**
 * A Word file: `body` is the document's body XML; `links` are the hyperlinks' targets by
 * relationship id; `pictures` the pictures by relationship id (see `wordPicture`).
 */
export async function docxFile(body: string, links: Record<string, string> = {}, pictures: Record<string, FilePicture> = {}): Promise<Uint8Array> {
  const IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
  const rels =
    Object.entries(links)
      .map(
        ([id, target]) =>
          `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${target}" TargetMode="External"/>`,
      )
      .join('') +
    Object.entries(pictures)
      .map(([id, p]) =>
        'url' in p
          ? `<Relationship Id="${id}" Type="${IMAGE}" Target="${p.url}" TargetMode="External"/>`
          : `<Relationship Id="${id}" Type="${IMAGE}" Target="media/${p.name}"/>`,
      )
      .join('');
  const media = Object.values(
    Object.fromEntries(Object.values(pictures).flatMap((p) => ('bytes' in p ? [[p.name, { name: `word/media/${p.name}`, input: p.bytes }]] : []))),
  );
  const types = ['png', 'jpeg', 'gif', 'svg'].map((ext) => `<Default Extension="${ext}" ContentType="image/${ext === 'svg' ? 'svg+xml' : ext}"/>`).join('');
  return zipOf([
    {
      name: '[Content_Types].xml',
      input: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${types}<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: '_rels/.rels',
      input: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: 'word/_rels/document.xml.rels',
      input: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    },
    {
      name: 'word/document.xml',
      input: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}" ${DRAWING_NS}><w:body>${body}</w:body></w:document>`,
    },
    ...media,
  ]);
}

const DRAWING_NS =
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';

/** A paragraph of a Word body holding the picture of relationship `id` (kept in the file, or linked), described as `alt`. */
export const wordPicture = (id: string, alt: string, linked = false) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Picture" descr="${xmlText(alt)}"/>` +
  `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:blipFill><a:blip r:${linked ? 'link' : 'embed'}="${id}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic>` +
  `</wp:inline></w:drawing></w:r></w:p>`;

/** A Word file of a paragraph before, each picture in a paragraph of its own, and a paragraph after. */
export function picturesDocx(pictures: FilePicture[]): Promise<Uint8Array> {
  const byId = Object.fromEntries(pictures.map((p, i) => [`rIdPic${i}`, p]));
  const body = Object.entries(byId)
    .map(([id, p]) => wordPicture(id, p.alt, 'url' in p))
    .join('');
  return docxFile(`${wp('Before the pictures.')}${body}${wp('After the pictures.')}`, {}, byId);
}

const wp = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const wcell = (text: string) => `<w:tc>${wp(text)}</w:tc>`;

/** A report in Word: a heading, bold text, a table of two rows. */
export const reportDocx = () =>
  docxFile(
    wp('Quarterly report', 'Heading1') +
      `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>All is well.</w:t></w:r></w:p>` +
      `<w:tbl><w:tr>${wcell('Region')}${wcell('Sales')}</w:tr><w:tr>${wcell('North')}${wcell('1200')}</w:tr></w:tbl>`,
  );

/** An OpenDocument file of `type` with `body` inside office:body, automatic styles, and other parts (its pictures) by name. */
export async function odfFile(type: 'text' | 'spreadsheet', body: string, styles = '', parts: Record<string, Uint8Array> = {}): Promise<Uint8Array> {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
  return zipOf([
    { name: 'mimetype', input: `application/vnd.oasis.opendocument.${type}` },
    {
      name: 'META-INF/manifest.xml',
      input: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.${type}"/></manifest:manifest>`,
    },
    {
      name: 'content.xml',
      input: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns}><office:automatic-styles>${styles}</office:automatic-styles><office:body>${body}</office:body></office:document-content>`,
    },
    ...Object.entries(parts).map(([name, input]) => ({ name, input })),
  ]);
}

/** An OpenDocument text of a paragraph before, each picture in a frame with its description (as LibreOffice writes it), and a paragraph after. */
export function picturesOdt(pictures: FilePicture[]): Promise<Uint8Array> {
  const frames = pictures
    .map(
      (p) =>
        `<text:p><draw:frame draw:name="Image" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${'url' in p ? p.url : `Pictures/${p.name}`}" xlink:type="simple"/>` +
        `<svg:title>Title of ${xmlText(p.alt)}</svg:title><svg:desc>${xmlText(p.alt)}</svg:desc></draw:frame></text:p>`,
    )
    .join('');
  const parts = Object.fromEntries(pictures.flatMap((p) => ('bytes' in p ? [[`Pictures/${p.name}`, p.bytes]] : [])));
  return odfFile('text', `<office:text><text:p>Before the pictures.</text:p>${frames}<text:p>After the pictures.</text:p></office:text>`, '', parts);
}

/** A text in OpenDocument: heading, bold and italic, a numbered list, a table, a link. */
export const reportOdt = () =>
  odfFile(
    'text',
    '<office:text><text:h text:outline-level="1">Field notes</text:h>' +
      '<text:p>Plain and <text:span text:style-name="T1">bold</text:span> and <text:span text:style-name="T2">slanted</text:span>.</text:p>' +
      '<text:list text:style-name="L1"><text:list-item><text:p>First step</text:p></text:list-item><text:list-item><text:p>Second step</text:p></text:list-item></text:list>' +
      '<table:table table:name="T"><table:table-row><table:table-cell><text:p>Site</text:p></table:table-cell><table:table-cell><text:p>Count</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell><text:p>Ridge</text:p></table:table-cell><table:table-cell><text:p>42</text:p></table:table-cell></table:table-row></table:table>' +
      '<text:p>See <text:a xlink:href="https://example.com/notes">the notes</text:a> and <text:a xlink:href="javascript:alert(1)">this</text:a>.</text:p>' +
      '<text:p><draw:frame><draw:image xlink:href="Pictures/a.png"/></draw:frame></text:p></office:text>',
    '<style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>' +
      '<style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>' +
      '<text:list-style style:name="L1"><text:list-level-style-number text:level="1"/></text:list-style>',
  );

/** A workbook with two sheets: text, a date, a number, a formula with its result, merged cells. */
export async function budgetXlsx(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const a = wb.addWorksheet('Budget');
  a.addRow(['Item', 'Due', 'Amount', 'Double']);
  a.addRow(['Paper', new Date(Date.UTC(2024, 0, 5)), 0.1 + 0.2, { formula: 'C2*2', result: 0.6 }]);
  a.mergeCells('A4:B4');
  a.getCell('A4').value = 'Merged';
  const b = wb.addWorksheet('People');
  b.addRow(['Name', 'Team']);
  b.addRow(['Ada', 'Engines']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** A spreadsheet in OpenDocument: a header row, a row repeated, a covered (merged) cell, and the empty rows and cells a program writes to the sheet's end. */
export const budgetOds = () =>
  odfFile(
    'spreadsheet',
    '<office:spreadsheet><table:table table:name="Costs">' +
      '<table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16382"/></table:table-row>' +
      '<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="3"><text:p>3.00</text:p></table:table-cell><table:table-cell><text:p>x</text:p></table:table-cell></table:table-row>' +
      '<table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Span</text:p></table:table-cell><table:covered-table-cell/></table:table-row>' +
      '<table:table-row table:number-rows-repeated="1048571"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>' +
      '</table:table><table:table table:name="Second"><table:table-row><table:table-cell><text:p>Only</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>',
  );

/** A zip whose one part unpacks to `mib` MiB (compressed, a few hundred KB): what a zip bomb is made of. */
export function bombZip(names: Record<string, string>, bombName: string, mib: number): Uint8Array {
  return deflatedZip([
    ...Object.entries(names).map(([name, text]) => ({ name, input: text })),
    { name: bombName, input: Buffer.alloc(mib * 1024 * 1024, 0x20) },
  ]);
}

/**
 * A zip of `files`, each deflated at the strongest level by Node's zlib, as a program packs a large part. (A packer in
 * JavaScript took seconds of CPU for each bomb; the format is the same whoever deflates.)
 */
export function deflatedZip(files: { name: string; input: string | Uint8Array }[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const data = typeof file.input === 'string' ? Buffer.from(file.input) : file.input;
    const packed = deflateRawSync(data, { level: 9 });
    // What the local header and the central directory both say of the entry: made by version 2.0, its name in UTF-8, deflated,
    // a fixed time (1 January 1980), its CRC and sizes, and its name's length.
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0);
    common.writeUInt16LE(0x0800, 2);
    common.writeUInt16LE(8, 4);
    common.writeUInt16LE(0, 6);
    common.writeUInt16LE(0x21, 8);
    common.writeUInt32LE(crc32(data), 10);
    common.writeUInt32LE(packed.length, 14);
    common.writeUInt32LE(data.length, 18);
    common.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([u32(0x04034b50), common, name]);
    central.push(Buffer.concat([u32(0x02014b50), u16(20), common, Buffer.alloc(10), u32(offset), name]));
    parts.push(local, packed);
    offset += local.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.concat([u32(0x06054b50), Buffer.alloc(4), u16(files.length), u16(files.length), u32(directory.length), u32(offset), u16(0)]);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
