import { describe, expect, it } from 'vitest';
import { libpqConnection } from './dump.ts';

describe("DATABASE_URL as PostgreSQL's own programs take it", () => {
  it('keeps the password off the command line, in their environment', () => {
    const { dbname, env } = libpqConnection('postgres://cabinet:s%40cret@db.example.com:5433/cabinet');
    expect(dbname).toBe('postgres://cabinet@db.example.com:5433/cabinet');
    expect(env.PGPASSWORD).toBe('s@cret');
  });

  it("says node-postgres's SSL options in libpq's words, and leaves libpq's own alone", () => {
    expect(libpqConnection('postgres://u@h/d?ssl=true').dbname).toBe('postgres://u@h/d?sslmode=require');
    expect(libpqConnection('postgres://u@h/d?sslmode=no-verify').dbname).toBe('postgres://u@h/d?sslmode=require');
    expect(libpqConnection('postgres://u@h/d?sslmode=verify-full&sslrootcert=%2Fca.pem').dbname).toBe(
      'postgres://u@h/d?sslmode=verify-full&sslrootcert=%2Fca.pem',
    );
    expect(libpqConnection('postgres://u@h/d').env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});
