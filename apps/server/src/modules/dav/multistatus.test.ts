import { describe, expect, it } from 'vitest';
import { multistatus, propResponse, statusLine, statusResponse } from './multistatus.ts';
import { d, element, writeXml } from './xml-write.ts';

const NS = 'http://example.com/neon/litmus/';

describe('a multistatus', () => {
  it('groups a resource’s properties by status, the found ones first', () => {
    const body = writeXml(
      multistatus([
        propResponse('/dav/a/Workspace/prop', [
          { name: { ns: NS, local: 'bar' }, status: 404 },
          { name: { ns: 'DAV:', local: 'getcontentlength' }, status: 200, value: d('getcontentlength', '12') },
          { name: { ns: NS, local: 'foo' }, status: 200, value: element(NS, 'foo', ['v']) },
        ]),
        statusResponse('/dav/a/Workspace/locked', 423, d('lock-token-submitted', d('href', '/dav/a/Workspace/'))),
      ]),
    );
    expect(body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/a/Workspace/prop</d:href>' +
        `<d:propstat><d:prop><d:getcontentlength>12</d:getcontentlength><x1:foo xmlns:x1="${NS}">v</x1:foo></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>` +
        `<d:propstat><d:prop><x2:bar xmlns:x2="${NS}"/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>` +
        '<d:response><d:href>/dav/a/Workspace/locked</d:href><d:status>HTTP/1.1 423 Locked</d:status><d:error><d:lock-token-submitted><d:href>/dav/a/Workspace/</d:href></d:lock-token-submitted></d:error></d:response></d:multistatus>',
    );
    expect(statusLine(424)).toBe('HTTP/1.1 424 Failed Dependency');
    // Asked for nothing: still one propstat, as a response must hold.
    expect(writeXml(propResponse('/dav/a/', []))).toContain('<d:propstat><d:prop/><d:status>HTTP/1.1 200 OK</d:status></d:propstat>');
  });
});
