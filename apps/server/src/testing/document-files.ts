import { makeZip } from 'client-zip';
import type { Person } from './given.ts';

/** Calls for tests of documents' import and export, against the app at `appUrl()` unless another is given. */
export function documentFiles(appUrl: () => string) {
  /** Sends a file's bytes to the import call, as a script or the browser does. */
  async function importFile(person: Person, parentId: string, fileName: string, bytes: Uint8Array | string, query = '', url = appUrl()) {
    const res = await fetch(
      `${url}/api/v1/workspaces/${person.workspace.id}/documents/import?parentId=${parentId}&fileName=${encodeURIComponent(fileName)}${query}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${person.token}`, 'content-type': 'application/octet-stream' },
        body: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
      },
    );
    return { status: res.status, body: (await res.json()) as any };
  }

  async function exportAs(person: Person, id: string, format: string) {
    const res = await fetch(`${appUrl()}/api/v1/items/${id}/export?format=${format}`, { headers: { authorization: `Bearer ${person.token}` } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  const children = async (person: Person, folderId: string) =>
    (await person.raw('GET', `/workspaces/${person.workspace.id}/items/${folderId}/children`)).body.items.map((i: { name: string }) => i.name);

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
