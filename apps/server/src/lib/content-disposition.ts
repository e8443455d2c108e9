/** `Content-Disposition: attachment` for a file name in any script: an ASCII fallback and the UTF-8 name (RFC 6266). */
export const attachment = (filename: string) =>
  `attachment; filename="${filename.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
