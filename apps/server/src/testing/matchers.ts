import { ERROR_STATUS, type ErrorCode } from '@cabinet/contracts';
import { expect } from 'vitest';

interface AnswerMatchers<R = unknown> {
  /** The answer failed with this §8 code and the status the catalogue gives it: `expect(res).toFail('forbidden')`. */
  toFail(code: ErrorCode): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends AnswerMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends AnswerMatchers {}
}

expect.extend({
  toFail(received: { status: number; error?: { code: string; message: string } | undefined }, code: ErrorCode) {
    const got = `${received.status} ${received.error?.code ?? '(no error)'}${received.error ? `: ${received.error.message}` : ''}`;
    const pass = received.status === ERROR_STATUS[code] && received.error?.code === code;
    return { pass, message: () => `expected an answer ${this.isNot ? 'other than' : 'of'} ${ERROR_STATUS[code]} ${code}, got ${got}` };
  },
});
