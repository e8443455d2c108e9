import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { maskSecretsIn, parseEnv, settingsInForce, SettingsError } from './env.ts';

const base = { SESSION_SECRET: 'k'.repeat(40), DATA_DIR: '/tmp/cabinet-env-test' };

describe('settings', () => {
  it('defaults to the embedded provider, local storage and port 8080', () => {
    const env = parseEnv(base);
    expect(env).toMatchObject({
      PORT: 8080,
      PUBLIC_URL: 'http://localhost:8080',
      embeddedIdp: true,
      STORAGE_DRIVER: 'local',
      secureCookies: false,
      IDP_DEV_OUTBOX_PAGE: true,
    });
  });

  it('uses secure cookies and no dev outbox page behind https', () => {
    const env = parseEnv({ ...base, PUBLIC_URL: 'https://files.example.com/' });
    expect(env.PUBLIC_URL).toBe('https://files.example.com');
    expect(env.secureCookies).toBe(true);
    expect(env.IDP_DEV_OUTBOX_PAGE).toBe(false);
  });

  it('listens on loopback only for a localhost address, unless HOST says otherwise', () => {
    expect(parseEnv(base).HOST).toBe('localhost');
    expect(parseEnv({ ...base, PUBLIC_URL: 'http://127.0.0.1:9000' }).HOST).toBe('127.0.0.1');
    expect(parseEnv({ ...base, PUBLIC_URL: 'http://[::1]:9000' }).HOST).toBe('::1');
    expect(parseEnv({ ...base, PUBLIC_URL: 'https://files.example.com' }).HOST).toBe('0.0.0.0');
    expect(parseEnv({ ...base, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('serves uploaded bytes on another origin than the app, or on none of its own', () => {
    expect(parseEnv({ ...base, PUBLIC_URL: 'https://files.example.com', USER_CONTENT_URL: 'https://usercontent.example.net/' }).USER_CONTENT_URL).toBe(
      'https://usercontent.example.net',
    );
    expect(() => parseEnv({ ...base, PUBLIC_URL: 'https://files.example.com', USER_CONTENT_URL: 'https://files.example.com/content' })).toThrow(
      /USER_CONTENT_URL: must be another origin than PUBLIC_URL/,
    );
    const s3 = { ...base, STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 's' };
    expect(() => parseEnv({ ...s3, USER_CONTENT_URL: 'https://usercontent.example.net' })).toThrow(/USER_CONTENT_URL: is for local storage/);
    expect(() => parseEnv({ ...s3, PUBLIC_URL: 'https://files.example.com', S3_ENDPOINT: 'https://files.example.com', S3_FORCE_PATH_STYLE: 'true' })).toThrow(
      /S3_ENDPOINT: must be another origin than PUBLIC_URL/,
    );
  });

  it('schedules backups by a cron expression of five fields, into a folder given as a path from here', () => {
    expect(parseEnv(base)).toMatchObject({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: 7 });
    expect(parseEnv(base).BACKUP_DIR).toBeUndefined();
    expect(parseEnv({ ...base, BACKUP_DIR: 'backups', BACKUP_SCHEDULE: '30 2 * * 1-5' })).toMatchObject({
      BACKUP_DIR: path.resolve('backups'),
      BACKUP_SCHEDULE: '30 2 * * 1-5',
    });
    for (const bad of ['daily', '0 3 * *', '0 3 * * * *', '61 3 * * *'])
      expect(() => parseEnv({ ...base, BACKUP_SCHEDULE: bad }), bad).toThrow(/BACKUP_SCHEDULE: expected a cron expression of five fields/);
    expect(() => parseEnv({ ...base, BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
  });

  it('takes a claim name for the groups claim, or none', () => {
    expect(parseEnv(base).OIDC_GROUPS_CLAIM).toBeUndefined();
    expect(parseEnv({ ...base, OIDC_GROUPS_CLAIM: 'groups' }).OIDC_GROUPS_CLAIM).toBe('groups');
    expect(parseEnv({ ...base, OIDC_GROUPS_CLAIM: 'https://example.com/claims/groups' }).OIDC_GROUPS_CLAIM).toBe('https://example.com/claims/groups');
    expect(() => parseEnv({ ...base, OIDC_GROUPS_CLAIM: 'my groups' })).toThrow(/OIDC_GROUPS_CLAIM: expected a claim name/);
  });

  it('trusts no proxy, every proxy, a number of hops, or the proxies listed', () => {
    expect(parseEnv(base).TRUST_PROXY).toBe(false);
    expect(parseEnv({ ...base, TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ ...base, TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    for (const bad of ['proxy.example.com', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/2']) {
      expect(() => parseEnv({ ...base, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: expected true, false, a number of proxy hops/);
    }
    expect(parseEnv({ ...base, TRUST_PROXY: '1' }).IDP_DEV_OUTBOX_PAGE).toBe(false);
  });

  it('drains 10 s before stopping when several instances share a Redis, else stops at once, unless DRAIN_SECONDS says', () => {
    expect(parseEnv(base).DRAIN_SECONDS).toBe(0);
    expect(parseEnv({ ...base, REDIS_URL: 'redis://127.0.0.1:6379' }).DRAIN_SECONDS).toBe(10);
    expect(parseEnv({ ...base, REDIS_URL: 'redis://127.0.0.1:6379', DRAIN_SECONDS: '3' }).DRAIN_SECONDS).toBe(3);
    expect(() => parseEnv({ ...base, DRAIN_SECONDS: '-1' })).toThrow(/DRAIN_SECONDS/);
  });

  it('never shows the dev outbox behind a proxy', () => {
    expect(parseEnv({ ...base, TRUST_PROXY: 'true' }).IDP_DEV_OUTBOX_PAGE).toBe(false);
    expect(() => parseEnv({ ...base, TRUST_PROXY: 'true', IDP_DEV_OUTBOX_PAGE: 'true' })).toThrow(/IDP_DEV_OUTBOX_PAGE: cannot be on with TRUST_PROXY/);
  });

  it('names every bad setting with the form it expects', () => {
    try {
      parseEnv({ ...base, PORT: '99999', DATABASE_URL: 'mysql://x', OIDC_ISSUER: 'https://login.example.com' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SettingsError);
      const problems = (error as SettingsError).problems.join('\n');
      expect(problems).toContain('PORT:');
      expect(problems).toContain('DATABASE_URL: expected a postgres:// or postgresql:// connection URL');
      expect(problems).toContain('OIDC_CLIENT_ID: required when any OIDC_* setting is set');
      expect(problems).toContain('OIDC_CLIENT_SECRET: required');
      expect(problems).not.toContain('k'.repeat(40));
    }
  });

  it('refuses a hosted provider over plain http unless it is on this machine', () => {
    const hosted = { ...base, OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' };
    expect(() => parseEnv({ ...hosted, OIDC_ISSUER: 'http://login.example.com' })).toThrow(/must be reached over https/);
    expect(parseEnv({ ...hosted, OIDC_ISSUER: 'http://127.0.0.1:9000/realms/x' }).embeddedIdp).toBe(false);
  });
});

describe('the settings in force, as the administrators see them', () => {
  it('masks every secret and the passwords inside addresses, and shows the rest', () => {
    const env = parseEnv({
      DATA_DIR: '/tmp/cabinet-settings-test',
      SESSION_SECRET: 'x'.repeat(40),
      METRICS_TOKEN: 'y'.repeat(20),
      DATABASE_URL: 'postgres://cabinet:p@ss#word@db.example:5432/cabinet?sslpassword=hush&sslmode=require',
      REDIS_URL: 'redis://:r3dis@cache.example:6379',
      SMTP_URL: 'smtps://mailer:m41l@smtp.example',
      IDP_PASSWORD_MIN_LENGTH: '14',
    });
    const shown = new Map(settingsInForce(env).map((s) => [s.name, s]));
    const text = JSON.stringify([...shown.values()]);
    for (const secret of ['x'.repeat(40), 'y'.repeat(20), 'p@ss#word', 'ss#word', 'hush', 'r3dis', 'm41l']) expect(text).not.toContain(secret);
    expect(shown.get('DATABASE_URL')?.value).toBe('postgres://cabinet:••••••••@db.example:5432/cabinet?sslpassword=••••••••&sslmode=require');
    expect(shown.get('SESSION_SECRET')).toMatchObject({ value: '••••••••', secret: true, set: true });
    // The password policy is no secret.
    expect(shown.get('IDP_PASSWORD_MIN_LENGTH')).toMatchObject({ value: '14', secret: false, set: true });
    expect(shown.get('MAX_FILE_SIZE')).toMatchObject({ secret: false, set: false });
    expect(shown.get('OIDC_CLIENT_SECRET')).toMatchObject({ value: null, secret: true });
    // Every setting named as a secret or a token is one of those masked whole.
    for (const s of shown.values()) if (/SECRET|TOKEN/.test(s.name)) expect(s.secret, s.name).toBe(true);
  });

  it('masks passwords in the text of a service’s error too', () => {
    expect(maskSecretsIn('connect ECONNREFUSED redis://user:pw@10.0.0.1:6379 (redis)')).toBe(
      'connect ECONNREFUSED redis://user:••••••••@10.0.0.1:6379 (redis)',
    );
    expect(maskSecretsIn('no address here')).toBe('no address here');
  });
});
