import { Command, InvalidArgumentError } from 'commander';
import { doctor } from './doctor.ts';
import { createUserCommand } from './create-user.ts';
import { createTokenCommand } from './create-token.ts';
import { migrateCommand } from './migrate.ts';
import { serve, serveCollab } from '../main.ts';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

const program = new Command('cabinet').description('Cabinet: documents and files together').showHelpAfterError();

program.command('serve').description('start the server (API, browser app and embedded identity provider)').action(async () => {
  await serve();
});

program
  .command('collab')
  .description('start only the collaboration socket (/collab), as its own process beside `serve`; needs DATABASE_URL and REDIS_URL')
  .action(async () => {
    await serveCollab();
  });

program.command('migrate').description('bring the database schema up to date').action(migrateCommand);

const user = program.command('user').description('manage users');
user
  .command('create')
  .description('create an account in the embedded identity provider, and its Cabinet user and workspace')
  .requiredOption('--email <email>', 'email address (the sign-in name)')
  .requiredOption('--name <name>', 'display name')
  .requiredOption('--password <password>', 'password (must meet the password policy)')
  .option('--admin', 'make the user an instance administrator', false)
  .action(createUserCommand);

const token = program.command('token').description('manage API tokens');
token
  .command('create')
  .description('create an API token for a user and print it')
  .requiredOption('--email <email>', 'the user the token acts as')
  .requiredOption('--name <name>', 'what the token is for')
  .option('--scopes <scopes>', 'read, write or read,write', 'read,write')
  .option('--days <days>', 'days until it expires (at most 365)', positiveInt, 90)
  .action(createTokenCommand);

program.command('doctor').description('check settings, database, storage and the identity provider').action(doctor);

await program.parseAsync(process.argv);
