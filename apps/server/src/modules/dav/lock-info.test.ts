import { describe, expect, it } from 'vitest';
import { activeLock, lockDepth, lockSeconds, readLockInfo, supportedLock } from './lock-info.ts';
import { readXml } from './xml-read.ts';
import { d, writeXml } from './xml-write.ts';

const info = (s: string) => readLockInfo(readXml(Buffer.from(s)));

describe('a LOCK as asked and as shown', () => {
  it('reads the scope and keeps the owner as written', () => {
    const asked = info("<lockinfo xmlns='DAV:'><lockscope><exclusive/></lockscope><locktype><write/></locktype><owner>litmus test suite</owner></lockinfo>");
    expect(asked.scope).toBe('exclusive');
    expect(asked.owner?.children).toStrictEqual(['litmus test suite']);
    // Given back in its own (default) namespace, DAV:, its text as it came.
    const shown = writeXml(activeLock({ token: 't:1', scope: 'exclusive', depth: 0, owner: asked.owner, secondsLeft: 3600, rootHref: '/dav/a' }));
    expect(shown).toContain('<owner xmlns="DAV:">litmus test suite</owner>');
    const finder = info(
      '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>http://www.apple.com/webdav_fs/</D:href></D:owner></D:lockinfo>',
    );
    expect(finder.scope).toBe('shared');
    expect(writeXml(finder.owner!)).toContain('<D:owner xmlns:D="DAV:"><D:href>http://www.apple.com/webdav_fs/</D:href></D:owner>');
    expect(info("<lockinfo xmlns='DAV:'><lockscope><exclusive/></lockscope><locktype><write/></locktype></lockinfo>").owner).toBeUndefined();
  });

  it.each([
    "<lockinfo xmlns='DAV:'><lockscope/><locktype><write/></locktype></lockinfo>",
    "<lockinfo xmlns='DAV:'><lockscope><exclusive/><shared/></lockscope><locktype><write/></locktype></lockinfo>",
    "<lockinfo xmlns='DAV:'><lockscope><exclusive/></lockscope><locktype><read/></locktype></lockinfo>",
    "<propfind xmlns='DAV:'/>",
  ])('refuses %s', (body) => {
    expect(() => info(body)).toThrow();
  });

  it('reads Depth and Timeout as WebDAV has them', () => {
    expect([lockDepth(undefined), lockDepth('0'), lockDepth('Infinity')]).toStrictEqual(['infinity', 0, 'infinity']);
    expect(() => lockDepth('1')).toThrow(/Depth 0 or infinity/);
    expect([
      lockSeconds(undefined),
      lockSeconds('Second-3600'),
      lockSeconds('Infinite, Second-4100000000'),
      lockSeconds('Second-5'),
      lockSeconds('x, Second-600'),
    ]).toStrictEqual([3600, 3600, 3600, 60, 600]);
  });

  it('shows a lock with every field bare, as neon parses it', () => {
    const shown = writeXml(
      d(
        'prop',
        d(
          'lockdiscovery',
          activeLock({
            token: 'opaquelocktoken:x',
            scope: 'exclusive',
            depth: 0,
            owner: d('owner', 'litmus test suite'),
            secondsLeft: 3599.7,
            rootHref: '/dav/a/Workspace/l',
          }),
        ),
      ),
    );
    expect(shown).toBe(
      '<?xml version="1.0" encoding="utf-8"?><d:prop xmlns:d="DAV:"><d:lockdiscovery><d:activelock><d:locktype><d:write/></d:locktype>' +
        '<d:lockscope><d:exclusive/></d:lockscope><d:depth>0</d:depth><d:owner>litmus test suite</d:owner><d:timeout>Second-3599</d:timeout>' +
        '<d:locktoken><d:href>opaquelocktoken:x</d:href></d:locktoken><d:lockroot><d:href>/dav/a/Workspace/l</d:href></d:lockroot></d:activelock></d:lockdiscovery></d:prop>',
    );
  });

  it('says a resource takes write locks, exclusive or shared', () => {
    expect(writeXml(supportedLock())).toBe(
      '<?xml version="1.0" encoding="utf-8"?><d:supportedlock xmlns:d="DAV:"><d:lockentry><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>' +
        '<d:lockentry><d:lockscope><d:shared/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry></d:supportedlock>',
    );
  });
});
