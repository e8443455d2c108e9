import { Cron } from 'croner';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { TrustProxy } from './lib/client-address.ts';

/** Whether `pattern` is a cron expression of five fields that croner reads. */
function validCron(pattern: string): boolean {
  if (pattern.trim().split(/\s+/).length !== 5) return false;
  try {
    new Cron(pattern, { paused: true, timezone: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number({ message: 'expected a whole number' }).int('expected a whole number').min(min).max(max);
const UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };
/** A byte count: `1048576`, `8MiB`, `100 GiB`. */
const bytes = (min: number) =>
  z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*([kmgt]i?b|b)?\s*$/i, 'expected a size like 104857600, 8MiB or 100GiB')
    .transform((v) => {
      const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(v)!;
      return Math.floor(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
    })
    .refine((n) => n >= min && n <= Number.MAX_SAFE_INTEGER, `expected at least ${min} bytes`);

/** TRUST_PROXY: true or false, a number of proxy hops, or the proxies' addresses and CIDR ranges, comma-separated. */
const trustProxy = z.string().transform((v, ctx): TrustProxy => {
  const text = v.trim().toLowerCase();
  if (['true', 'yes'].includes(text)) return true;
  if (['false', 'no', '0', ''].includes(text)) return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
      ctx.addIssue({ code: 'custom', message: 'expected true, false, a number of proxy hops, or proxy addresses and CIDR ranges like 10.0.0.0/8,fd00::/8' });
      return z.NEVER;
    }
  }
  return entries;
});

const httpUrl = z
  .url({ message: 'expected an absolute http(s) URL, like https://cabinet.example.com' })
  .refine((u) => /^https?:\/\//.test(u), 'expected an absolute http(s) URL, like https://cabinet.example.com')
  .transform((u) => u.replace(/\/+$/, ''));

const ZSettings = z
  .object({
    PORT: int(1, 65535).default(8080),
    /** Seconds a server told to stop goes on serving while /readyz answers 503 (ADR 0078); unset: 10 with REDIS_URL, else 0. */
    DRAIN_SECONDS: int(0, 300).optional(),
    HOST: z.string().min(1).optional(),
    PUBLIC_URL: httpUrl.optional(),
    // Another origin (host name) of this server's, serving only the bytes people uploaded, so that none of them is ever on the app's own.
    USER_CONTENT_URL: httpUrl.optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// connection URL')
      .optional(),
    DATABASE_POOL_SIZE: int(1, 1000).default(10),
    OIDC_ISSUER: httpUrl.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_PROVIDER_NAME: z.string().min(1).optional(),
    OIDC_SCOPES: z.string().min(1).default('openid email profile'),
    OIDC_GROUPS_CLAIM: z
      .string()
      .regex(/^[A-Za-z0-9_.:/-]{1,100}$/, 'expected a claim name (letters, digits, and _ . : / -)')
      .optional(),
    // Sessions only for sign-ins the provider reports a second factor for (ID token `amr` or `acr`); the embedded provider asks everyone for one.
    REQUIRE_TWO_STEP: bool.default(false),
    OIDC_CLOCK_SKEW_SECONDS: z.coerce.number({ message: 'expected a whole number of seconds' }).int().min(-86400).max(86400).default(0),
    STORAGE_DRIVER: z.enum(['local', 's3'], { message: 'expected local or s3' }).default('local'),
    S3_ENDPOINT: httpUrl.optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    MAX_FILE_SIZE: bytes(1).default(100 * 1024 ** 3),
    UPLOAD_PART_SIZE: bytes(5 * 1024 ** 2).default(8 * 1024 ** 2),
    UPLOAD_EXPIRY_HOURS: int(1, 24 * 365).default(24),
    MAX_OPEN_UPLOADS: int(1, 1_000_000).default(500),
    TRASH_RETENTION_DAYS: int(1, 36500).default(30),
    VERSIONS_MAX: int(1, 100_000).default(100),
    ACTIVITY_RETENTION_DAYS: int(0, 36500).default(365),
    DOCUMENT_REVISION_MINUTES: int(1, 24 * 60).default(10),
    NOTIFICATION_MAIL_DELAY_MINUTES: int(0, 7 * 24 * 60).default(10),
    NOTIFICATION_RETENTION_DAYS: int(1, 36500).default(90),
    COLLAB_SOCKETS_PER_ADDRESS: int(1).default(200),
    WORKER_THREADS: int(1, 64).default(2),
    WORKER_MEMORY_MB: int(64, 65536).default(768),
    WORKER_TIMEOUT_SECONDS: int(1, 3600).default(30),
    // Reading text out of files for search, in the background: its own threads, so imports never wait behind it.
    SEARCH_EXTRACT_THREADS: int(1, 64).default(1),
    SEARCH_EXTRACT_MEMORY_MB: int(64, 65536).default(1024),
    SEARCH_EXTRACT_TIMEOUT_SECONDS: int(1, 3600).default(120),
    // Thumbnails (ADR 0040): their own threads, and the bytes their cache may take in storage.
    PREVIEW_THREADS: int(1, 64).default(1),
    PREVIEW_MEMORY_MB: int(64, 65536).default(1024),
    PREVIEW_TIMEOUT_SECONDS: int(1, 3600).default(60),
    PREVIEW_CACHE_MAX: bytes(0).default(5 * 1024 ** 3),
    /** The folder of backups the scheduled backup writes in (ADR 0057); unset: none is scheduled. */
    BACKUP_DIR: z.string().min(1).optional(),
    /** When the scheduled backup runs: a cron expression of five fields, in UTC. */
    BACKUP_SCHEDULE: z
      .string()
      .refine(validCron, 'expected a cron expression of five fields (minute hour day month weekday), such as 0 3 * * *')
      .default('0 3 * * *'),
    /** How many finished backups the folder keeps; older ones, and bytes no kept backup names, go after each scheduled one. */
    BACKUP_KEEP: int(1, 10_000).default(7),
    /** A bearer token with which /metrics is served to callers not on this machine (ADR 0058). */
    METRICS_TOKEN: z.string().min(16, 'expected at least 16 characters').optional(),
    // OpenTelemetry traces over OTLP/HTTP (ADR 0061): off unless set; spans go to <endpoint>/v1/traces.
    OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
    OTEL_SERVICE_NAME: z.string().min(1).default('cabinet'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'expected a redis:// URL')
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'expected letters, digits and _ . : -')
      .default('cabinet'),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Cabinet <no-reply@cabinet.local>'),
    SESSION_SECRET: z.string().min(32, 'expected at least 32 characters of random text').optional(),
    SESSION_IDLE_DAYS: int(1, 3650).default(14),
    SESSION_ABSOLUTE_DAYS: int(1, 3650).default(90),
    /** Check every answer against its zod schema as well (tests turn it on; production serializes without checking, ADR 0049). */
    CHECK_RESPONSES: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: trustProxy.default(false),
    IDP_PASSWORD_MIN_LENGTH: int(1, 1024).default(12),
    IDP_PASSWORD_MAX_LENGTH: int(8, 4096).default(128),
    IDP_PASSWORD_REQUIRE: z
      .string()
      .regex(/^(|(lower|upper|digit|symbol)(,(lower|upper|digit|symbol))*)$/, 'expected a comma list of lower, upper, digit, symbol')
      .default(''),
    IDP_COMMON_PASSWORDS_FILE: z.string().optional(),
    IDP_SIGNIN_ATTEMPTS_PER_MINUTE: int(1).default(10),
    IDP_LOCKOUT_FAILURES: int(1).default(5),
    IDP_LOCKOUT_MINUTES: int(1).default(15),
    IDP_DEV_OUTBOX_PAGE: bool.optional(),
  })
  .superRefine((s, ctx) => {
    const hosted = [s.OIDC_ISSUER, s.OIDC_CLIENT_ID, s.OIDC_CLIENT_SECRET];
    if (hosted.some(Boolean) && !hosted.every(Boolean)) {
      for (const key of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const) {
        if (!s[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'required when any OIDC_* setting is set (a hosted identity provider needs issuer, client id and secret)',
          });
      }
    }
    if (s.OIDC_ISSUER && s.OIDC_ISSUER.startsWith('http://') && !isLoopback(s.OIDC_ISSUER)) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'a hosted identity provider must be reached over https (http only for localhost)' });
    }
    if (s.STORAGE_DRIVER === 's3') {
      for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!s[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'required when STORAGE_DRIVER=s3' });
      }
    }
    if (s.USER_CONTENT_URL && s.STORAGE_DRIVER === 's3') {
      ctx.addIssue({
        code: 'custom',
        path: ['USER_CONTENT_URL'],
        message: "is for local storage: with STORAGE_DRIVER=s3 the bucket's own address already serves the bytes, on an origin of its own",
      });
    }
    if (s.IDP_DEV_OUTBOX_PAGE && s.TRUST_PROXY !== false) {
      ctx.addIssue({
        code: 'custom',
        path: ['IDP_DEV_OUTBOX_PAGE'],
        message: 'cannot be on with TRUST_PROXY: behind a proxy every caller looks local, so anyone could read reset links',
      });
    }
    if (s.IDP_PASSWORD_MAX_LENGTH < s.IDP_PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', path: ['IDP_PASSWORD_MAX_LENGTH'], message: 'must be at least IDP_PASSWORD_MIN_LENGTH' });
    }
  });

export function isLoopback(url: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

/** Fastify listens on both 127.0.0.1 and ::1 for `localhost`, so a browser reaches it whichever localhost resolves to. */
const loopbackHost = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

export type Settings = z.infer<typeof ZSettings>;

export interface Env extends Omit<Settings, 'HOST' | 'PUBLIC_URL' | 'SESSION_SECRET' | 'IDP_DEV_OUTBOX_PAGE' | 'DRAIN_SECONDS'> {
  HOST: string;
  DRAIN_SECONDS: number;
  PUBLIC_URL: string;
  SESSION_SECRET: string;
  IDP_DEV_OUTBOX_PAGE: boolean;
  /** True when no hosted provider is configured and Cabinet serves its own under /idp. */
  embeddedIdp: boolean;
  secureCookies: boolean;
  /** The settings the operator set (the rest are defaults or unset), as the admin page shows them. */
  explicit?: readonly string[];
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Cabinet cannot start because of its settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads `.env` (when present) into process.env without overriding what is already set. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Validates the settings; a bad one names the setting and the expected form. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZSettings.safeParse(raw);
  if (!parsed.success) {
    throw new SettingsError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0] ?? 'settings');
        const got = raw[key] === undefined ? 'unset' : key.includes('SECRET') ? 'a value' : `'${raw[key]}'`;
        return `${key}: ${i.message} (got ${got})`;
      }),
    );
  }
  const s = parsed.data;
  const PUBLIC_URL = s.PUBLIC_URL ?? `http://localhost:${s.PORT}`;
  const sameOrigin = (key: 'USER_CONTENT_URL' | 'S3_ENDPOINT') =>
    `${key}: must be another origin than PUBLIC_URL (${new URL(PUBLIC_URL).origin}): what people upload is never served on the app's own origin`;
  const origin = (url: string | undefined) => (url ? new URL(url).origin : undefined);
  if (origin(s.USER_CONTENT_URL) === origin(PUBLIC_URL)) throw new SettingsError([sameOrigin('USER_CONTENT_URL')]);
  // A bucket addressed by path (S3_FORCE_PATH_STYLE) is served from the endpoint's own origin.
  if (s.STORAGE_DRIVER === 's3' && s.S3_FORCE_PATH_STYLE && origin(s.S3_ENDPOINT) === origin(PUBLIC_URL)) throw new SettingsError([sameOrigin('S3_ENDPOINT')]);
  const dataDir = path.resolve(s.DATA_DIR);
  return {
    ...s,
    // A localhost installation listens on loopback only: nothing of it is reachable from the network.
    HOST: s.HOST ?? (isLoopback(PUBLIC_URL) ? loopbackHost(PUBLIC_URL) : '0.0.0.0'),
    DATA_DIR: dataDir,
    ...(s.BACKUP_DIR ? { BACKUP_DIR: path.resolve(s.BACKUP_DIR) } : {}),
    PUBLIC_URL,
    SESSION_SECRET: s.SESSION_SECRET ?? dataDirSecret(dataDir),
    // Several instances share a Redis: each is behind a load balancer, which takes a few checks to see one stopping.
    DRAIN_SECONDS: s.DRAIN_SECONDS ?? (s.REDIS_URL ? 10 : 0),
    IDP_DEV_OUTBOX_PAGE: s.IDP_DEV_OUTBOX_PAGE ?? (isLoopback(PUBLIC_URL) && !s.SMTP_URL && s.TRUST_PROXY === false),
    embeddedIdp: !s.OIDC_ISSUER,
    secureCookies: PUBLIC_URL.startsWith('https://'),
    explicit: Object.keys(raw).filter((key) => key in ZSettings.shape),
  };
}

const MASK = '••••••••';
/** The settings whose whole value is a secret. (A password inside an address is masked in any setting.) */
const SECRET_SETTINGS = new Set(['SESSION_SECRET', 'OIDC_CLIENT_SECRET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'METRICS_TOKEN']);

/**
 * `text` with what addresses in it hold of secrets masked: the password of `scheme://user:password@host` (up to the
 * address's last `@`, whatever the password holds), and query parameters named like a password, secret, token or key
 * (`?password=`, `?sslpassword=`). For settings and for the errors of the services they name.
 */
export function maskSecretsIn(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)(\S+)/gi, (_match, scheme: string, rest: string) => {
    let masked = rest;
    const at = rest.lastIndexOf('@');
    if (at >= 0) {
      const userinfo = rest.slice(0, at);
      const colon = userinfo.indexOf(':');
      if (colon >= 0) masked = `${userinfo.slice(0, colon)}:${MASK}${rest.slice(at)}`;
    }
    return scheme + masked.replace(/([?&;][^=&#\s]*(?:pass|secret|token|key)[^=&#\s]*=)[^&#\s]*/gi, `$1${MASK}`);
  });
}

function shown(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.join(',');
  return maskSecretsIn(String(value));
}

/** Every setting as the instance runs with it, in the order of the README's table: secrets masked, never their values. */
export function settingsInForce(env: Env): { name: string; value: string | null; set: boolean; secret: boolean }[] {
  const explicit = new Set(env.explicit ?? []);
  return Object.keys(ZSettings.shape).map((name) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    const secret = SECRET_SETTINGS.has(name);
    return { name, value: secret ? (value === undefined ? null : MASK) : shown(value), set: explicit.has(name), secret };
  });
}

/** A single machine keeps its generated secret in the data folder; several instances must share SESSION_SECRET. */
function dataDirSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
