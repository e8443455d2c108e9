/** Where a bucket is and how to sign in to it: read without loading the S3 SDK. */
export interface S3Settings {
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** The origin presigned URLs point at: the endpoint itself (path style) or the bucket's host under it. */
export function bucketOrigin(settings: S3Settings): string {
  const endpoint = new URL(settings.endpoint ?? `https://s3.${settings.region}.amazonaws.com`);
  return settings.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${settings.bucket}.${endpoint.host}`;
}
