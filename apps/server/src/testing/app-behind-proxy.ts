import { openDatabase } from '../db/client.ts';
import { TcpProxy } from './tcp-proxy.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { freePort, startTestApp, type TestApp } from './test-app.ts';

export interface AppBehindProxy {
  t: TestApp;
  /** The relay between the server and PostgreSQL: `down()` is the database going away, `up()` its return. */
  proxy: TcpProxy;
  /** The same database, reached directly (past the relay). */
  direct: TestDatabase;
  /** Stops the server, then the relay, and drops the database. */
  close(): Promise<void>;
}

/**
 * A real Cabinet server (`startTestApp` with these settings) that talks to its own PostgreSQL
 * database only through a relay that can be cut, to stage an outage. Its pool has the size the
 * settings give (`DATABASE_POOL_SIZE`).
 */
export async function startAppBehindProxy(settings: Record<string, string> = {}): Promise<AppBehindProxy> {
  const direct = await createTestDatabase();
  if (!direct.url) throw new Error('An outage is staged in front of PostgreSQL only: run with DATABASE_URL.');
  const url = new URL(direct.url);
  const proxy = new TcpProxy(url.hostname, Number(url.port || 5432), await freePort());
  await proxy.up();
  url.host = `127.0.0.1:${proxy.port}`;
  const poolSize = settings.DATABASE_POOL_SIZE ? Number(settings.DATABASE_POOL_SIZE) : undefined;
  const throughProxy = await openDatabase({ databaseUrl: url.href, dataDir: '', poolSize });
  const t = await startTestApp(settings, { db: { database: throughProxy, url: url.href, drop: () => throughProxy.close() } });
  return {
    t,
    proxy,
    direct,
    async close() {
      await t.close();
      await t.db.drop();
      await proxy.down();
      await direct.drop();
    },
  };
}
