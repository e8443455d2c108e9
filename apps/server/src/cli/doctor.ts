import type { AppContext } from '../context.ts';
import { allMigrations } from '../db/migrate.ts';
import { ffmpegAvailable } from '../modules/previews/index.ts';
import { CommandFailed, databaseHelp, type CommandScope } from './scope.ts';

type Check = { name: string; run: () => Promise<string> };

/** Checks each thing Cabinet depends on and says what is wrong in words an operator can act on. */
export async function doctorCommand({ env, context, io }: CommandScope): Promise<number> {
  io.out(`✓ settings: valid (public URL ${env.PUBLIC_URL})\n`);
  let ctx: AppContext;
  try {
    ctx = await context({ migrate: false });
  } catch (error) {
    io.out(`✗ database: ${error instanceof CommandFailed ? error.message : databaseHelp(env, error)}\n`);
    return 1;
  }
  const checks: Check[] = [
    {
      name: 'database',
      run: async () => {
        await ctx.database.ping();
        const rows = await ctx.database.sql.query<{ name: string }>('SELECT name FROM schema_migrations').catch(() => []);
        const pending = allMigrations().length - rows.length;
        const kind = ctx.database.kind === 'pglite' ? `embedded (PGlite in ${env.DATA_DIR}/db)` : 'PostgreSQL';
        return `${kind}; ${pending > 0 ? `${pending} migration(s) pending, applied at next start or by \`cabinet migrate\`` : 'schema up to date'}`;
      },
    },
    {
      name: 'storage',
      run: async () => {
        await ctx.storage.check();
        return env.STORAGE_DRIVER === 's3' ? `S3 bucket ${env.S3_BUCKET} reachable` : `local disk at ${env.DATA_DIR}/blobs writable`;
      },
    },
    {
      name: 'identity provider',
      run: async () => {
        const config = await ctx.rp.configuration();
        return `${env.embeddedIdp ? 'embedded' : 'hosted'} provider ${config.serverMetadata().issuer} answers discovery`;
      },
    },
  ];
  let failed = false;
  for (const check of checks) {
    try {
      io.out(`✓ ${check.name}: ${await check.run()}\n`);
    } catch (error) {
      if (check.name === 'identity provider' && env.embeddedIdp) {
        // Cabinet serves its embedded provider itself; with Cabinet stopped there is nothing to ask.
        io.out(`- identity provider: embedded, served by Cabinet at ${env.PUBLIC_URL}/idp (Cabinet is not running, so discovery was not checked)\n`);
        continue;
      }
      failed = true;
      const reason = error instanceof Error ? error.message : String(error);
      const hint =
        check.name === 'database'
          ? databaseHelp(env, error)
          : check.name === 'storage'
            ? `${reason}. Check STORAGE_DRIVER and the S3_* settings (or DATA_DIR for local disk).`
            : `${reason}. Check OIDC_ISSUER and that the provider is reachable from this machine.`;
      io.out(`✗ ${check.name}: ${hint}\n`);
    }
  }
  // Which thumbnails are made (ADR 0040): never a failure, videos only with Debian's ffmpeg.
  const gib = (env.PREVIEW_CACHE_MAX / 1024 ** 3).toFixed(1);
  io.out(
    `✓ previews: pictures (JPEG, PNG, GIF, WebP, TIFF, AVIF, HEIC) and PDF first pages on; ` +
      (ffmpegAvailable() ? 'videos on (ffmpeg found)' : 'videos off (install ffmpeg for video thumbnails)') +
      `; cache kept within ${gib} GiB (PREVIEW_CACHE_MAX)\n`,
  );
  return failed ? 1 : 0;
}
