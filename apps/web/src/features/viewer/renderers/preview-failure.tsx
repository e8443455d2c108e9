import type { ApiError } from '../../../lib/api-client.ts';
import { NoPreview } from './no-preview.tsx';
import { isNoPreview } from './preview-api.ts';
import type { RendererProps } from './types.ts';
import { ViewerError } from './viewer-states.tsx';

/** What a converted file's renderer shows when the server could not convert it: why (the No-preview card), or a passing failure with Try again. */
export function PreviewFailure({ error, source, item, onRetry }: RendererProps & { error: unknown; onRetry: () => void }) {
  if (isNoPreview(error)) {
    const { message, details } = error as ApiError;
    const title = details?.reason === 'too_large' ? 'Too large to show here' : 'No preview of this file';
    return <NoPreview item={item} source={source} title={title} reason={message} />;
  }
  return <ViewerError error={error instanceof Error ? error : new Error('Something went wrong.')} onRetry={onRetry} />;
}
