import { createHash, randomBytes } from 'node:crypto';

/**
 * A PDF of `pages` pages, each a line of text over a picture of `pictureBytes` incompressible bytes
 * (8-bit grey, stored unfiltered), as views on one random block: a file of about pages ×
 * pictureBytes bytes, without that much memory. Not linearized, as most PDFs people have are
 * not: a reader finds the cross-reference table at the end, then each page's objects.
 */
export function bigPdf(pages: number, pictureBytes: number): { chunks: Buffer[]; sha256: string; size: number } {
  const side = Math.floor(Math.sqrt(pictureBytes));
  const picture = randomBytes(side * side);
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer) => {
    chunks.push(b);
    size += b.length;
  };
  const text = (s: string) => push(Buffer.from(s, 'latin1'));
  // Objects: 1 catalog, 2 page tree, 3 font, then per page: page, contents, picture.
  const object = (n: number, body: string | (() => void)) => {
    offsets[n] = size;
    text(`${n} 0 obj\n`);
    if (typeof body === 'string') text(body);
    else body();
    text('\nendobj\n');
  };
  const pageObject = (i: number) => 4 + i * 3;
  text('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${pageObject(i)} 0 R`).join(' ')}] >>`);
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const n = pageObject(i);
    const content = `q 500 0 0 500 50 150 cm /Im1 Do Q BT /F1 36 Tf 50 700 Td (Page ${i + 1} of ${pages}) Tj ET`;
    object(
      n,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${n + 1} 0 R /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 ${n + 2} 0 R >> >> >>`,
    );
    object(n + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    object(n + 2, () => {
      text(
        `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${picture.length} >>\nstream\n`,
      );
      push(picture);
      text('\nendstream');
    });
  }
  const count = pageObject(pages);
  const xref = size;
  text(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let n = 1; n < count; n++) text(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  text(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return { chunks, sha256: hash.digest('hex'), size };
}
