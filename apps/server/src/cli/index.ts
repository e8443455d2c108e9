import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DataDirBusy, ForeignSocket, holdDataDir, sendToHolder } from '../infra/data-dir/hold.ts';
import { fail, loadSettings } from './settings.ts';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

/**
 * Runs a command on the installation's data. With the embedded database only one process may
 * open it (ADR 0022): when a server (or another command) holds the data folder, the command is
 * sent to it and runs there, so what it prints is true at once and after restarts.
 */
const run = (command: string) => async (options: Record<string, unknown>) => {
  const env = loadSettings();
  const io = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };
  const request = { command, options };
  // Loaded only when the command runs in this process: sending it to a server needs none of it.
  const runHere = async () => (await import('./commands.ts')).runCommand(env, request, io);
  if (env.DATABASE_URL) process.exit(await runHere());
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    let hold;
    try {
      hold = await holdDataDir(env.DATA_DIR, 'command');
    } catch (error) {
      if (!(error instanceof DataDirBusy)) throw error;
      // A holder that just ended cannot answer: look again.
      const answer = await sendToHolder(env.DATA_DIR, request, io).catch((e: unknown) => (e instanceof ForeignSocket ? fail(e.message) : undefined));
      if (answer && 'exit' in answer) process.exit(answer.exit);
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    let code = 1;
    try {
      code = await runHere();
    } finally {
      await hold.release();
    }
    process.exit(code);
  }
  fail(`Another \`cabinet\` command has held the data folder ${env.DATA_DIR} for 30 seconds. Wait for it to end and try again.`);
};

const program = new Command('cabinet').description('Cabinet: documents and files together').showHelpAfterError();

program
  .command('serve')
  .description('start the server (API, browser app and embedded identity provider)')
  .action(async () => {
    const { serve } = await import('../main.ts');
    await serve();
  });

program
  .command('collab')
  .description('start only the collaboration socket (/collab), as its own process beside `serve`; needs DATABASE_URL and REDIS_URL')
  .action(async () => {
    const { serveCollab } = await import('../main.ts');
    await serveCollab();
  });

program.command('migrate').description('bring the database schema up to date').action(run('migrate'));

const user = program.command('user').description('manage users');
user
  .command('create')
  .description('create an account in the embedded identity provider, and its Cabinet user and workspace')
  .requiredOption('--email <email>', 'email address (the sign-in name)')
  .requiredOption('--name <name>', 'display name')
  .requiredOption('--password <password>', 'password (must meet the password policy)')
  .option('--admin', 'make the user an instance administrator', false)
  .action(run('user create'));
user
  .command('reset-two-step')
  .description('turn off two-step sign-in at the embedded identity provider for someone who lost their authenticator app and recovery codes')
  .requiredOption('--email <email>', 'the email address they sign in with')
  .action(run('user reset-two-step'));

const token = program.command('token').description('manage API tokens and app passwords');
token
  .command('create')
  .description('create an API token, or an app password for WebDAV clients (--scopes dav), for a user and print it')
  .requiredOption('--email <email>', 'the user the token acts as')
  .requiredOption('--name <name>', 'what the token is for')
  .option('--scopes <scopes>', 'read, write or read,write (an API token), or dav (an app password: signs in WebDAV clients at /dav/ only)', 'read,write')
  .option('--days <days>', 'days until it expires (at most 365)', positiveInt, 90)
  .action(run('token create'));

const searchCommand = program.command('search').description('the search index');
searchCommand
  .command('reindex')
  .description("read every file's text again and work out again who may find what, with progress")
  .option('--workspace <slug>', 'only this workspace (by its address)')
  .action(run('search reindex'));

const backup = program
  .command('backup')
  .description('back up the installation while it runs: the database as of one moment, and the files’ bytes (copied only once over the backups in a folder)')
  .option('--out <dir>', 'the folder of backups to write in (made if missing; an empty folder, or one holding Cabinet backups)')
  .option('--keep <n>', 'then keep only the newest n finished backups in the folder, and the bytes they name', positiveInt)
  .action(async (options: { out?: string; keep?: number }) => {
    if (!options.out) backup.error('error: required option --out <dir> not specified');
    // Whoever runs it (this process or the server holding the data folder) writes where the person meant.
    await run('backup')({ out: path.resolve(options.out!), ...(options.keep ? { keep: options.keep } : {}) });
  });
backup
  .command('verify')
  .description('check a backup: its database dump, its list of blobs and every blob, against their SHA-256')
  .requiredOption('--from <dir>', 'the folder of backups')
  .option('--name <name>', 'which backup in it (default: the newest finished one)')
  .action(async (options: { from: string; name?: string }) => run('backup verify')({ ...options, from: path.resolve(options.from) }));

program
  .command('restore')
  .description('bring a backup back onto an installation that holds nothing (with the embedded database, stop the server first)')
  .requiredOption('--from <dir>', 'the folder of backups')
  .option('--name <name>', 'which backup in it (default: the newest finished one)')
  .action(async (options: { from: string; name?: string }) => run('restore')({ ...options, from: path.resolve(options.from) }));

program
  .command('restore-item')
  .description('bring one file, folder or document back from a backup into the running installation, with its versions and revisions')
  .requiredOption('--from <dir>', 'the folder of backups')
  .requiredOption('--item <id>', 'the id of the file, folder or document (from its address, as it was)')
  .option('--to <folder>', 'the id of the folder to put it in (default: the folder it was in, or the nearest one above that is still here)')
  .option('--name <name>', 'which backup (default: the newest finished one)')
  .action(async (options: { from: string; item: string; to?: string; name?: string }) => run('restore-item')({ ...options, from: path.resolve(options.from) }));

program
  .command('export')
  .description('write a workspace as plain files a person can read without Cabinet: folders and files as they are named, documents as Markdown, access.csv')
  .requiredOption('--workspace <slug>', 'the workspace, by its address')
  .requiredOption('--out <dir>', 'an empty folder (made if missing), or one an earlier export of this workspace was written in')
  .action(async (options: { workspace: string; out: string }) => run('export')({ ...options, out: path.resolve(options.out) }));

const storageCommand = program.command('storage').description('the bytes of files');
storageCommand
  .command('verify')
  .description("check storage against the database: every file's bytes there and whole (hashed), and what nothing names")
  .option('--repair', 'remove objects nothing names that are over a day old', false)
  .action(run('storage verify'));
storageCommand
  .command('migrate')
  .description('copy every file’s bytes (checked by SHA-256) and thumbnail to the other kind of storage while Cabinet runs; run again to finish')
  .requiredOption('--to <kind>', 's3 (the bucket given by S3_*) or local (DATA_DIR/blobs)', (v) => {
    if (v !== 's3' && v !== 'local') throw new InvalidArgumentError('expected s3 or local');
    return v;
  })
  .action(async (options: { to: 'local' | 's3' }) => {
    // The bucket's settings as given here: a server that holds the embedded database runs the command with its own.
    const s = loadSettings();
    const bucket = {
      S3_ENDPOINT: s.S3_ENDPOINT,
      S3_REGION: s.S3_REGION,
      S3_BUCKET: s.S3_BUCKET,
      S3_ACCESS_KEY_ID: s.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: s.S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: s.S3_FORCE_PATH_STYLE,
    };
    await run('storage migrate')({ to: options.to, bucket });
  });

program.command('doctor').description('check settings, database, storage and the identity provider').action(run('doctor'));

await program.parseAsync(process.argv);
