import { Box } from '@mantine/core';
import { Component, createElement, lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { rendererFor, renderers, type Renderer, type RendererProps } from '../renderers/index.ts';
import { NoPreview } from '../renderers/no-preview.tsx';
import { ViewerError, ViewerLoading } from '../renderers/viewer-states.tsx';

/** Each renderer's component, fetched when first shown. */
const components = new Map<Renderer, LazyExoticComponent<ComponentType<RendererProps>>>(renderers.map((r) => [r, lazy(r.load)]));

/** A renderer that throws shows the error in its place; the bar and the arrows keep working. */
class RendererBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <ViewerError error={this.state.error} /> : this.props.children;
  }
}

/** The file itself, by the renderer its type has (loaded when first needed), or the "No preview" card. */
export function ViewerBody({ item, source }: RendererProps) {
  const renderer = rendererFor(item);
  const Shown = renderer && components.get(renderer);
  // The signed URL is on its way while the renderer's code loads (the source keeps it for the renderer).
  useEffect(() => {
    if (renderer?.readsBytes) source.url().catch(() => undefined);
  }, [renderer, source]);
  return (
    <Box h="100%" data-renderer={renderer?.name ?? 'none'}>
      {Shown ? (
        <RendererBoundary key={`${item.id}:${source.conversionBase}`}>
          <Suspense fallback={renderer.loading?.({ item, source }) ?? <ViewerLoading label={`Loading ${item.name}`} />}>
            {/* One lazy component per renderer, made once at load (createElement: the lint takes a looked-up component for one made in render). */}
            {createElement(Shown, { item, source })}
          </Suspense>
        </RendererBoundary>
      ) : (
        <NoPreview item={item} source={source} />
      )}
    </Box>
  );
}
