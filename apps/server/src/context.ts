import path from 'node:path';
import { createMailer, type Mailer, type PasswordPolicy } from '@cabinet/idp';
import { openDatabase, type Database } from './db/client.ts';
import type { Db } from './db/client.ts';
import { isLoopback, type Env } from './env.ts';
import { deriveKey, hmac } from './lib/crypto.ts';
import { RelyingParty } from './infra/oidc/relying-party.ts';
import { createStorage, countingFailures, type StorageDriver } from './infra/storage/index.ts';
import { countJobs } from './infra/jobs/queue.ts';
import { Metrics } from './infra/metrics/metrics.ts';
import { WorkerPool } from './infra/workers/pool.ts';
import { startTracing, type Tracing } from './infra/tracing/tracing.ts';
import { CABINET_VERSION } from './version.ts';

/** What the modules are built from: settings and the adapters to the outside world. */
export interface AppContext {
  env: Env;
  database: Database;
  db: Db;
  storage: StorageDriver;
  rp: RelyingParty;
  /** Worker threads for parsing what users send (imports); see infra/workers. */
  workers: WorkerPool;
  /** Worker threads reading text out of files for search, in the background (ADR 0036). */
  extractors: WorkerPool;
  /** Worker threads making thumbnails, in the background (ADR 0040). */
  previewers: WorkerPool;
  /** Mail Cabinet sends (invitations): SMTP, or the dev outbox the embedded provider also writes to. */
  mailer: Mailer;
  /** The instance's metrics (/metrics, ADR 0058): storage and the job runner count their failures in them. */
  metrics: Metrics;
  /** Once told to stop, the instance drains: /readyz answers 503 while it goes on serving (ADR 0078). */
  readiness: { stopping: boolean };
  /** Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set (ADR 0061): the app's requests, the database's statements, storage's calls. */
  tracing?: Tracing;
}

export const EMBEDDED_CLIENT_ID = 'cabinet';
export const embeddedClientSecret = (secret: string) => hmac(secret, 'embedded-idp-client');
export const embeddedIssuer = (env: Env) => `${env.PUBLIC_URL}/idp`;
/** The embedded provider's password policy, from the settings. */
export const passwordPolicy = (env: Env): PasswordPolicy => ({
  minLength: env.IDP_PASSWORD_MIN_LENGTH,
  maxLength: env.IDP_PASSWORD_MAX_LENGTH,
  require: env.IDP_PASSWORD_REQUIRE ? (env.IDP_PASSWORD_REQUIRE.split(',') as PasswordPolicy['require']) : [],
  commonPasswordsFile: env.IDP_COMMON_PASSWORDS_FILE,
});
/** The key sealing authenticator apps' secrets in the embedded provider's tables. */
export const twoStepKey = (env: Env) => deriveKey(env.SESSION_SECRET, 'idp-two-step');

/** Where mail goes: the same settings for the provider's mail and Cabinet's own. */
export const mailOptions = (env: Env) => ({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: path.join(env.DATA_DIR, 'outbox') });

export function createRelyingParty(env: Env): RelyingParty {
  const issuer = env.OIDC_ISSUER ?? embeddedIssuer(env);
  return new RelyingParty({
    issuer,
    clientId: env.OIDC_CLIENT_ID ?? EMBEDDED_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET ?? embeddedClientSecret(env.SESSION_SECRET),
    redirectUri: `${env.PUBLIC_URL}/auth/callback`,
    postLogoutRedirectUri: `${env.PUBLIC_URL}/signin`,
    scopes: env.OIDC_SCOPES,
    allowHttp: env.embeddedIdp || isLoopback(issuer),
    clockSkewSeconds: env.OIDC_CLOCK_SKEW_SECONDS,
    groupsClaim: env.OIDC_GROUPS_CLAIM,
  });
}

export async function createContext(env: Env, database?: Database): Promise<AppContext> {
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await startTracing({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME, version: CABINET_VERSION })
    : undefined;
  const db =
    database ??
    (await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      poolSize: env.DATABASE_POOL_SIZE,
      ...(tracing ? { onQuery: tracing.statement } : {}),
    }));
  // A database opened before (tests open theirs counting statements) is watched too.
  if (tracing && database) database.observeStatements(tracing.statement);
  const workers = new WorkerPool({
    threads: env.WORKER_THREADS,
    queue: env.WORKER_THREADS * 4,
    memoryMb: env.WORKER_MEMORY_MB,
    timeoutMs: env.WORKER_TIMEOUT_SECONDS * 1000,
  });
  const extractors = new WorkerPool({
    threads: env.SEARCH_EXTRACT_THREADS,
    queue: env.SEARCH_EXTRACT_THREADS * 2,
    memoryMb: env.SEARCH_EXTRACT_MEMORY_MB,
    timeoutMs: env.SEARCH_EXTRACT_TIMEOUT_SECONDS * 1000,
    env: {},
  });
  const previewers = new WorkerPool({
    threads: env.PREVIEW_THREADS,
    queue: env.PREVIEW_THREADS * 2,
    memoryMb: env.PREVIEW_MEMORY_MB,
    timeoutMs: env.PREVIEW_TIMEOUT_SECONDS * 1000,
    env: {},
  });
  const metrics = new Metrics({ pool: db.poolStats, jobs: () => countJobs(db.db) });
  return {
    env,
    database: db,
    db: db.db,
    storage: countingFailures(createStorage(env), metrics.storageFailed, tracing?.tracer),
    rp: createRelyingParty(env),
    workers,
    extractors,
    previewers,
    mailer: createMailer(mailOptions(env)),
    metrics,
    readiness: { stopping: false },
    ...(tracing ? { tracing } : {}),
  };
}
