import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, rateKey, trustHop } from './client-address.ts';

const request = (socket: string, forwarded?: string) =>
  ({ socket: { remoteAddress: socket }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

describe('the caller’s address', () => {
  it('is the socket’s when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress(request('198.51.100.4', '203.0.113.9'), trustHop(false))).toBe('198.51.100.4');
  });

  it('behind a number of hops, is the address the farthest trusted proxy saw: what a caller writes in front of it does not count', () => {
    // The caller sent "X-Forwarded-For: 1.2.3.4"; the one proxy appended what it saw.
    expect(clientAddress(request('10.0.0.2', '1.2.3.4, 203.0.113.9'), trustHop(1))).toBe('203.0.113.9');
    expect(clientAddress(request('10.0.0.2', '1.2.3.4, 203.0.113.9, 10.0.0.1'), trustHop(2))).toBe('203.0.113.9');
    // More hops trusted than there are: the farthest address given.
    expect(clientAddress(request('10.0.0.2', '203.0.113.9'), trustHop(5))).toBe('203.0.113.9');
  });

  it('behind listed proxies, skips exactly those (CIDR ranges, IPv6, IPv4-mapped) and stops at the first other address', () => {
    const trust = trustHop(['10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    expect(clientAddress(request('::ffff:10.1.2.3', '1.2.3.4, 203.0.113.9, 192.0.2.7'), trust)).toBe('203.0.113.9');
    expect(clientAddress(request('fd00::1', '2001:db8::5'), trust)).toBe('2001:db8::5');
    // Reached directly, not through a listed proxy: the header is not believed.
    expect(clientAddress(request('198.51.100.4', '203.0.113.9'), trust)).toBe('198.51.100.4');
  });

  it('believes the leftmost address when every proxy is trusted (for a proxy that overwrites the header)', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.9, 10.0.0.1'), trustHop(true))).toBe('203.0.113.9');
  });
});

describe('what a limit per address counts by', () => {
  it('is an IPv4 address itself, and an IPv6 address’s /64', () => {
    expect(rateKey('203.0.113.9')).toBe('203.0.113.9');
    expect(rateKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateKey('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(rateKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateKey('::1')).toBe('0:0:0:0::/64');
    expect(rateKey('2001:db8:1:3::a')).not.toBe(rateKey('2001:db8:1:2::a'));
  });
});
