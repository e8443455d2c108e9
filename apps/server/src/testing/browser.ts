import path from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '@cabinet/contracts';
import { readOutbox, type OutboxMessage } from '@cabinet/idp';
import { callingRoutes } from './route-call.ts';

export interface Page {
  status: number;
  url: string;
  text: string;
  headers: Headers;
}

/**
 * A minimal browser for integration tests: a cookie jar and redirects, so sign-in runs
 * through the real provider pages and callback over HTTP.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split('=')[1]!) < new Date()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Follows redirects like a browser (303 turns into GET). */
  async navigate(
    url: string,
    init: { method?: string; form?: Record<string, string>; maxRedirects?: number; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    let method = init.method ?? (init.form ? 'POST' : 'GET');
    let body: string | undefined = init.form ? new URLSearchParams(init.form).toString() : undefined;
    let current = new URL(url, this.origin).href;
    for (let hop = 0; hop <= (init.maxRedirects ?? 20); hop++) {
      const res = await fetch(current, {
        method,
        redirect: 'manual',
        headers: {
          cookie: this.cookieHeader(),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(current).origin } : {}),
          ...init.headers,
        },
        ...(body ? { body } : {}),
      });
      this.store(res.headers);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location && hop < (init.maxRedirects ?? 20)) {
        current = new URL(location, current).href;
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        await res.arrayBuffer();
        continue;
      }
      return { status: res.status, url: current, text: await res.text(), headers: res.headers };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** JSON calls as the browser app makes them: cookie, CSRF header and same Origin (testing/route-call.ts). */
  readonly routes = callingRoutes(async (path, init) => {
    const res = await fetch(new URL(path, this.origin), {
      ...init,
      headers: { cookie: this.cookieHeader(), origin: this.origin, [CSRF_HEADER]: this.cookies.get(CSRF_COOKIE) ?? '', ...init.headers },
    });
    this.store(res.headers);
    return res;
  });
  readonly call = this.routes.call;
  readonly raw = this.routes.raw;
}

/** The hidden fields of the first form on a page, as a browser would submit them. */
export function hiddenFields(page: Page): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of page.text.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1];
    if (name) fields[name] = (value ?? '').replace(/&amp;/g, '&');
  }
  return fields;
}

/** The form action of the first form on a provider page. */
export function formAction(page: Page): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(page.text);
  if (!match) throw new Error(`no form on ${page.url}:\n${page.text.slice(0, 500)}`);
  return new URL(match[1]!.replace(/&amp;/g, '&'), page.url).href;
}

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}.${Date.now().toString(36)}.${counter++}@example.com`;
}

export const GOOD_PASSWORD = 'plum-orbit-canvas-42';

/** The mail sent to an address, oldest first, from the data folder's outbox (tests have no mail server). */
export function mailsTo(dataDir: string, to: string): OutboxMessage[] {
  return readOutbox(path.join(dataDir, 'outbox'), Infinity)
    .filter((m) => m.to === to)
    .reverse();
}

/** The newest link of that kind mailed to an address, read from the embedded provider's dev outbox. */
export async function mailedLink(origin: string, to: string, kind: 'verify' | 'reset'): Promise<string> {
  const outbox = await new TestBrowser(origin).navigate('/idp/dev/outbox');
  const mail = outbox.text.split('<article').find((m) => m.includes(`To ${to.replace(/&/g, '&amp;')} `) && m.includes(`/${kind}/`));
  if (!mail) throw new Error(`no ${kind} link mailed to ${to}`);
  return /href="([^"]+)"/.exec(mail)![1]!.replace(/&amp;/g, '&');
}

/**
 * Signs up a new account through the embedded provider's pages and follows the mailed link, which
 * confirms the address and comes back signed in.
 */
export async function signUp(origin: string, who: { name?: string; email?: string; password?: string; returnTo?: string } = {}) {
  const browser = new TestBrowser(origin);
  const email = who.email ?? uniqueEmail();
  const signIn = await browser.navigate(`/auth/login?returnTo=${encodeURIComponent(who.returnTo ?? '/')}`);
  const signUpPage = await browser.navigate(signIn.url.replace(/\/?$/, '/signup'));
  const sent = await browser.navigate(formAction(signUpPage), {
    form: { name: who.name ?? 'Test Person', email, password: who.password ?? GOOD_PASSWORD },
  });
  if (!sent.text.includes('Check your email')) throw new Error(`sign-up refused (${sent.status}):\n${sent.text.slice(0, 2000)}`);
  const done = await browser.navigate(await mailedLink(origin, email, 'verify'));
  return { browser, email, page: done, password: who.password ?? GOOD_PASSWORD };
}

/**
 * Creates an account on the provider page at `interactionUrl` and, without following the mailed link,
 * signs in with its password on the same interaction (what a provider without a readable outbox allows).
 */
export async function signUpWithPassword(
  browser: TestBrowser,
  interactionUrl: string,
  form: { name: string; email: string; password: string },
  init: { maxRedirects?: number } = {},
) {
  const signUpPage = await browser.navigate(`${interactionUrl}/signup`);
  await browser.navigate(formAction(signUpPage), { form });
  const signInPage = await browser.navigate(interactionUrl);
  return browser.navigate(formAction(signInPage), { form: { email: form.email, password: form.password }, ...init });
}

/** Signs in with an existing account through the provider's sign-in page. */
export async function signIn(origin: string, email: string, password: string, returnTo = '/') {
  const browser = new TestBrowser(origin);
  const page = await browser.navigate(`/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
  const done = await browser.navigate(formAction(page), { form: { email, password } });
  return { browser, page: done };
}
