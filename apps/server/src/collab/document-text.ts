import * as Y from 'yjs';

/** The plain text of a document (the editor's `default` fragment): one line per block, for search and export. */
export function documentText(doc: Y.Doc): string {
  const lines: string[] = [];
  let line = '';
  const walk = (node: Y.XmlElement | Y.XmlFragment | Y.XmlText) => {
    if (node instanceof Y.XmlText) {
      for (const op of node.toDelta() as { insert?: unknown }[]) if (typeof op.insert === 'string') line += op.insert;
      return;
    }
    for (const child of node.toArray()) walk(child as Y.XmlElement | Y.XmlText);
    if (node instanceof Y.XmlElement && line) {
      lines.push(line);
      line = '';
    }
  };
  walk(doc.getXmlFragment('default'));
  if (line) lines.push(line);
  return lines.join('\n');
}
