import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext, useParams } from 'react-router';
import DocumentPage from '../../features/documents/components/document-page.tsx';

/** `/w/:ws/d/:docId`: the editor comes in this page's own bundle, loaded when a document is opened. */
export function DocumentRoute() {
  const workspace = useOutletContext<TWorkspace>();
  const { docId } = useParams();
  return <DocumentPage key={docId} workspace={workspace} documentId={docId!} />;
}
