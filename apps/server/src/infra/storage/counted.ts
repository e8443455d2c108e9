import type { Tracer } from '@opentelemetry/api';
import { AppError } from '../../errors.ts';
import type { StorageDriver } from './driver.ts';

// OpenTelemetry's SpanKind.CLIENT and SpanStatusCode.ERROR, so that its API is not loaded while traces are off.
const CLIENT = 2;
const ERROR = 2;

/**
 * The driver with each call that failed told to `failed` by its name (`read`, `put`, `completeMultipart`…), for the
 * instance's metrics, but for an AppError (what the caller asked was wrong); the failure goes on to the caller as it
 * was. A stream's error after a read has begun is not counted: the call itself succeeded. With `tracer` (traces on,
 * ADR 0061), each call that is awaited is a span `storage <name>` too.
 */
export function countingFailures<D extends StorageDriver>(driver: D, failed: (operation: string) => void, tracer?: Tracer): D {
  return new Proxy(driver, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        // A call answered at once (signing an address) or a listing read as it comes is no span.
        if (!(result instanceof Promise)) return result;
        const span = tracer?.startSpan(`storage ${String(property)}`, { kind: CLIENT, attributes: { 'cabinet.storage.operation': String(property) } });
        return result.then(
          (answer: unknown) => {
            span?.end();
            return answer;
          },
          (error: unknown) => {
            // The caller's mistake (a part too large, an upload expired, an object that is not there) is not storage failing.
            if (!(error instanceof AppError)) {
              failed(String(property));
              span?.setStatus({ code: ERROR });
            }
            span?.end();
            throw error;
          },
        );
      };
    },
  });
}
