import type { TContentUrl } from '@cabinet/contracts';
import { useEffect, useState } from 'react';
import type { ViewerSource } from '../viewer-source.ts';

/** The signed URL of the file's bytes, for elements that load it themselves (img, video, audio). */
export function useContentUrl(source: ViewerSource): { data?: TContentUrl; error?: Error } {
  const [state, setState] = useState<{ for?: ViewerSource; data?: TContentUrl; error?: Error }>({});
  useEffect(() => {
    let live = true;
    source.url().then(
      (data) => live && setState({ for: source, data }),
      (error: unknown) => live && setState({ for: source, error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [source]);
  // What was got for another file is not this one's.
  return state.for === source ? state : {};
}
