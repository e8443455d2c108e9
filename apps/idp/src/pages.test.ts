import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, logoutPage, signInPage } from './pages.ts';

const hashOf = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
const directive = (name: string) => CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

it('allows every inline style and script of the pages by its hash, byte for byte', () => {
  const pages = [
    signInPage({ action: '/idp/interaction/x/login', signUpUrl: '/signup', forgotUrl: '/forgot' }),
    logoutPage('<form method="post" action="/idp/session/end/confirm"><input type="hidden" name="xsrf" value="x"></form>'),
  ];
  const styles = pages.flatMap((p) => [...p.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''));
  const scripts = pages.flatMap((p) => [...p.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? ''));
  expect(styles).toHaveLength(2);
  expect(scripts).toHaveLength(1);
  for (const style of styles) expect(directive('style-src')).toContain(hashOf(style));
  for (const script of scripts) expect(directive('script-src')).toContain(hashOf(script));
});
