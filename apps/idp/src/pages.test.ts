import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, logoutPage, signInPage, twoStepPage } from './pages.ts';

const hashOf = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
const directive = (name: string) => CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

it('allows every inline style and script of the pages by its hash, byte for byte', () => {
  const pages = [
    signInPage({
      action: '/idp/interaction/x/login',
      signUpUrl: '/signup',
      forgotUrl: '/forgot',
      passkey: { action: '/idp/interaction/x/passkey', options: '{}' },
    }),
    twoStepPage({ action: '/idp/interaction/x/two-step', cancelUrl: '/', passkey: { action: '/idp/interaction/x/two-step/passkey', options: '{}' } }),
    logoutPage('<form method="post" action="/idp/session/end/confirm"><input type="hidden" name="xsrf" value="x"></form>'),
  ];
  const styles = pages.flatMap((p) => [...p.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ''));
  const scripts = pages.flatMap((p) => [...p.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? ''));
  expect(styles).toHaveLength(3);
  expect(scripts).toHaveLength(3);
  for (const style of styles) expect(directive('style-src')).toContain(hashOf(style));
  for (const script of scripts) expect(directive('script-src')).toContain(hashOf(script));
});

it('carries the passkey options as an attribute no option can break out of', () => {
  const options = JSON.stringify({ challenge: '"><script>alert(1)</script>', rpId: "it's" });
  const page = signInPage({ action: '/idp/interaction/x/login', signUpUrl: '/signup', forgotUrl: '/forgot', passkey: { action: '/p', options } });
  const attribute = /data-options="([^"]*)"/.exec(page)![1]!;
  expect(attribute).not.toMatch(/[<>"']/);
  expect(
    attribute
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  ).toBe(options);
});
