import { Box, Group } from '@mantine/core';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { ZoomControls } from './zoom-controls.tsx';
import { ViewerError, ViewerLoading } from './viewer-states.tsx';
import { useZoom } from '../hooks/use-zoom.ts';
import type { RendererProps } from './types.ts';
import { useContentUrl } from './use-content-url.ts';
import { thumbnailUrl } from '../viewer-source.ts';

/**
 * A picture (PNG, JPEG, GIF and WebP — animated too —, AVIF, BMP, and SVG as a picture only: an
 * `<img>` never runs a script of an SVG nor loads what it links to), fitted to the screen; zoomed
 * with the buttons, + and −, or Ctrl and the wheel, and dragged to pan once larger than the screen.
 * The browser turns a JPEG upright by its EXIF orientation (`image-orientation: from-image`).
 */
export default function ImageRenderer({ item, source }: RendererProps) {
  const url = useContentUrl(source);
  return <PictureView item={item} url={url} unreadable="The browser cannot read this picture. Download it to open it with another program." />;
}

/**
 * A HEIC or HEIF photo (which browsers do not read): the picture Cabinet made of it, 1024 px across
 * (ADR 0040), while that is there.
 */
export function HeicRenderer({ item, source }: RendererProps) {
  const url = thumbnailUrl(source, 1024);
  return (
    <PictureView
      item={item}
      url={{ data: { url } }}
      unreadable="This photo has no picture to show yet: it is being prepared, or could not be made. Download it to open it with another program."
    />
  );
}

function PictureView({ item, url, unreadable }: { item: RendererProps['item']; url: { data?: { url: string }; error?: Error }; unreadable: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<{ w: number; h: number }>();
  const [boxSize, setBoxSize] = useState({ w: 0, h: 0 });
  const [failed, setFailed] = useState(false);
  const drag = useRef<{ x: number; y: number; left: number; top: number }>(undefined);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setBoxSize({ w: el.clientWidth, h: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [url.data]);

  const fitted = natural && boxSize.w ? Math.min(1, boxSize.w / natural.w, boxSize.h / natural.h) : 1;
  const zoom = useZoom(fitted);
  const scale = zoom.zoom ?? fitted;

  // Ctrl (or a trackpad's pinch, which browsers send as Ctrl) and the wheel zoom instead of scrolling the page.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      if (e.deltaY < 0) zoom.zoomIn();
      else zoom.zoomOut();
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  });

  if (url.error) return <ViewerError error={url.error} />;
  if (failed) return <ViewerError error={new Error(unreadable)} />;
  if (!url.data) return <ViewerLoading label={`Loading ${item.name}`} />;

  const panning = zoom.zoom !== null && natural && (natural.w * scale > boxSize.w || natural.h * scale > boxSize.h);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!panning || e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, left: e.currentTarget.scrollLeft, top: e.currentTarget.scrollTop };
    setDragging(true);
  };
  const endDrag = () => {
    drag.current = undefined;
    setDragging(false);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    e.currentTarget.scrollLeft = d.left - (e.clientX - d.x);
    e.currentTarget.scrollTop = d.top - (e.clientY - d.y);
  };

  return (
    <Box h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="center" p={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <ZoomControls zoom={zoom} scale={scale} />
      </Group>
      <Box
        ref={box}
        data-testid="image-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        style={{
          flex: 1,
          minHeight: 0,
          overflow: 'auto',
          display: 'grid',
          cursor: panning ? (dragging ? 'grabbing' : 'grab') : 'default',
          touchAction: panning ? 'none' : 'auto',
        }}
      >
        <img
          src={url.data.url}
          alt={item.name}
          draggable={false}
          onLoad={(e) => setNatural({ w: e.currentTarget.naturalWidth || 300, h: e.currentTarget.naturalHeight || 150 })}
          onError={() => setFailed(true)}
          style={{
            imageOrientation: 'from-image',
            margin: 'auto',
            display: 'block',
            width: natural ? natural.w * scale : undefined,
            height: natural ? natural.h * scale : undefined,
            maxWidth: natural ? 'none' : '100%',
            // A checkerboard behind transparent pictures, in either theme.
            backgroundImage: 'repeating-conic-gradient(var(--mantine-color-default-border) 0% 25%, transparent 0% 50%)',
            backgroundSize: '16px 16px',
          }}
        />
      </Box>
    </Box>
  );
}
