/**
 * A browser without an account, as a public link's visitor: keeps the cookies the server sets for
 * it (each sent only under its path) and comes from `ip` (the test app trusts X-Forwarded-For).
 */
export function linkVisitor(baseUrl: string, ip = '203.0.113.7') {
  const jar = new Map<string, { value: string; path: string }>();
  return {
    jar,
    async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const url = `/api/v1${path}`;
      const cookie = [...jar]
        .filter(([, c]) => url.startsWith(c.path))
        .map(([k, c]) => `${k}=${c.value}`)
        .join('; ');
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        redirect: 'manual',
        headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair, ...attrs] = line.split(';').map((s) => s.trim());
        const [name, value] = pair!.split('=');
        const cookiePath = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
        jar.set(name!, { value: value!, path: cookiePath });
      }
      const type = res.headers.get('content-type') ?? '';
      const text = type.includes('json') ? await res.text() : '';
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    },
  };
}

export type LinkVisitorClient = ReturnType<typeof linkVisitor>;
