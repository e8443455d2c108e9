/** Where file bytes live. Local disk by default, any S3-compatible bucket when configured. */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** Resolves when the storage can be reached and written to; rejects with the reason otherwise. */
  check(): Promise<void>;
}
