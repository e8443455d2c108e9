import { callingRoutes } from './route-call.ts';

/**
 * A browser without an account, as a public link's visitor: keeps the cookies the server sets for
 * it (each sent only under its path) and comes from `ip` (the test app trusts X-Forwarded-For).
 */
export function linkVisitor(baseUrl: string, ip = '203.0.113.7') {
  const jar = new Map<string, { value: string; path: string }>();
  const routes = callingRoutes(async (path, init) => {
    const cookie = [...jar]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const res = await fetch(`${baseUrl}${path}`, {
      ...init,
      redirect: 'manual',
      headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}), ...init.headers },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const [name, value] = pair!.split('=');
      const cookiePath = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      jar.set(name!, { value: value!, path: cookiePath });
    }
    return res;
  });
  return { jar, ...routes };
}

export type LinkVisitorClient = ReturnType<typeof linkVisitor>;
