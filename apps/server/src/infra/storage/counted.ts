import { AppError } from '../../errors.ts';
import type { StorageDriver } from './driver.ts';

/**
 * The driver with each call that failed told to `failed` by its name (`read`, `put`, `completeMultipart`…), for the
 * instance's metrics, but for an AppError (what the caller asked was wrong); the failure goes on to the caller as it
 * was. A stream's error after a read has begun is not
 * counted: the call itself succeeded.
 */
export function countingFailures<D extends StorageDriver>(driver: D, failed: (operation: string) => void): D {
  return new Proxy(driver, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        return result instanceof Promise
          ? result.catch((error: unknown) => {
              // The caller's mistake (a part too large, an upload expired, an object that is not there) is not storage failing.
              if (!(error instanceof AppError)) failed(String(property));
              throw error;
            })
          : result;
      };
    },
  });
}
