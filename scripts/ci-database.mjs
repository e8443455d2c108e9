// `create`: makes a fresh database on the local PostgreSQL server and prints its URL (exit 1 when no server answers).
// `drop URL`: removes it again.
import pg from 'pg';

const server = process.env.CI_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const [command, url] = process.argv.slice(2);
const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 3000 });
try {
  await client.connect();
} catch {
  process.exit(1);
}
try {
  if (command === 'create') {
    const name = `cabinet_ci_${Date.now().toString(36)}_${process.pid}`;
    await client.query(`CREATE DATABASE ${name}`);
    const out = new URL(server);
    out.pathname = `/${name}`;
    process.stdout.write(out.href);
  } else if (command === 'drop' && url) {
    const name = new URL(url).pathname.slice(1);
    if (!/^cabinet_ci_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to drop ${name}`);
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    throw new Error('usage: ci-database.mjs create | drop URL');
  }
} finally {
  await client.end();
}
