/** Defaults of PRODUCT.md §9 that both the browser and the server need to know. */
export const LIMITS = {
  apiTokenMaxDays: 365,
} as const;

/** Header the browser sends on every state-changing call, echoing the CSRF cookie. */
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'cabinet_csrf';
