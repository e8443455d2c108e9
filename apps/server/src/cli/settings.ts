import { loadDotEnv, parseEnv, SettingsError, type Env } from '../env.ts';

/** Stops the process with a message an operator can act on. */
export function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

export function loadSettings(): Env {
  loadDotEnv();
  try {
    return parseEnv();
  } catch (error) {
    if (error instanceof SettingsError) fail(error.message);
    throw error;
  }
}
