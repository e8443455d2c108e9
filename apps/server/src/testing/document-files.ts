import { documentsApi, itemsApi, urlOf, type TErrorEnvelope, type TExportFormat } from '@cabinet/contracts';
import { makeZip } from 'client-zip';
import type { Person } from './given.ts';

/** Calls for tests of documents' import and export, against the app at `appUrl()`. */
export function documentFiles(appUrl: () => string) {
  /** Sends a file's bytes to the import call, as a script or the browser does (to the person's own app). */
  const importFile = (person: Person, parentId: string, fileName: string, bytes: Uint8Array | string, onConflict?: 'fail' | 'keep_both') =>
    person.call(documentsApi.import, {
      params: { ws: person.workspace.id },
      query: { parentId, fileName, onConflict },
      body: new Blob([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], { type: 'application/octet-stream' }),
    });

  /** A document's export as its bytes (`call` would read them as text), with the error of a refusal. */
  async function exportAs(person: Person, id: string, format: TExportFormat) {
    const res = await fetch(`${appUrl()}${urlOf(documentsApi.export, { id }, { format })}`, { headers: { authorization: `Bearer ${person.token}` } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const error = res.ok ? undefined : (JSON.parse(bytes.toString('utf8')) as TErrorEnvelope).error;
    return { status: res.status, headers: res.headers, bytes, error };
  }

  const children = async (person: Person, folderId: string) =>
    (await person.call(itemsApi.children, { params: { ws: person.workspace.id, id: folderId } })).body.items.map((i) => i.name);

  /** A Word file as Word writes it, reduced to what a reader needs: content types, the package's relations and the body. */
  async function docx(bodyXml: string): Promise<Uint8Array> {
    const files = [
      {
        name: '[Content_Types].xml',
        input: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
      },
      {
        name: '_rels/.rels',
        input: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
      },
      {
        name: 'word/document.xml',
        input: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${bodyXml}</w:body></w:document>`,
      },
    ];
    return new Uint8Array(await new Response(makeZip(files)).arrayBuffer());
  }

  return { importFile, exportAs, children, docx };
}
