// No zod here: the browser's first bundle needs the codes, not the schemas.
/** The error catalogue of PRODUCT.md §8: stable codes and the HTTP status each answers with. */
export const ERROR_STATUS = {
  unauthenticated: 401,
  session_expired: 401,
  forbidden: 403,
  not_found: 404,
  invalid_input: 400,
  name_conflict: 409,
  cycle: 409,
  version_mismatch: 412,
  file_too_large: 413,
  quota_exceeded: 507,
  upload_expired: 410,
  checksum_mismatch: 422,
  link_expired: 410,
  link_password_required: 401,
  unsupported_media_type: 415,
  rate_limited: 429,
  storage_unavailable: 503,
  database_unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
