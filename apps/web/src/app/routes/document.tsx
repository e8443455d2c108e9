import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext, useParams } from 'react-router';
import DocumentPage from '../../features/documents/components/document-page.tsx';
import { readAhead } from '../../features/documents/hooks/use-document-snapshot.ts';

// This module is loaded when a document is first opened, at boot when the page opens at a
// document's address (startOpening): the document there is asked for at once, item and snapshot.
readAhead(window.location.pathname);

/** `/w/:ws/d/:docId`: a document's page; the editor's code comes after it (ADR 0052). */
export function DocumentRoute() {
  const workspace = useOutletContext<TWorkspace>();
  const { docId } = useParams();
  return <DocumentPage key={docId} workspace={workspace} documentId={docId!} />;
}
