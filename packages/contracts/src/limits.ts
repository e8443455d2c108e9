/** Defaults of PRODUCT.md §9 that both the browser and the server need to know. */
export const LIMITS = {
  listPageSize: 100,
  listPageSizeMax: 1000,
  sessionIdleDays: 14,
  sessionAbsoluteDays: 90,
  apiTokenMaxDays: 365,
} as const;

/** Header the browser sends on every state-changing call, echoing the CSRF cookie. */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'cabinet_csrf';
