import { spawn, spawnSync } from 'node:child_process';

/** A frame's PNG larger than this is refused (a 4K frame is ~10 MB): ffmpeg's output is bounded. */
const MAX_FRAME_BYTES = 40 * 1024 * 1024;

let found: boolean | undefined;

/** Whether Debian's `ffmpeg` is installed (looked for once): without it videos have no preview. */
export function ffmpegAvailable(): boolean {
  found ??= spawnSync('ffmpeg', ['-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return found;
}

export class VideoFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * A frame of the video at `file` as PNG, scaled to fit 1024 pixels: one second in (the first frame
 * is often black), else the first. ffmpeg runs as its own process on one thread, with no input but
 * the file, ended after `timeoutMs`.
 */
export async function videoFrame(file: string, timeoutMs: number): Promise<Buffer> {
  const until = Date.now() + timeoutMs;
  const frame = (await grab(file, ['-ss', '1'], until)) ?? (await grab(file, [], until));
  if (!frame) throw new VideoFailure('the video has no picture that can be read');
  return frame;
}

function grab(file: string, seek: string[], until: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-threads', '1'],
      ...seek,
      ...['-i', file, '-map', '0:v:0', '-frames:v', '1', '-vf', "scale='min(1024,iw)':'min(1024,ih)':force_original_aspect_ratio=decrease"],
      ...['-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
    ];
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let why: string | undefined;
    const timer = setTimeout(
      () => {
        why = 'reading the video took too long';
        child.kill('SIGKILL');
      },
      Math.max(1, until - Date.now()),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FRAME_BYTES) {
        why = 'the video frame is too large';
        child.kill('SIGKILL');
        return;
      }
      chunks.push(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (why) return reject(new VideoFailure(why));
      if (code !== 0 && size === 0) return reject(new VideoFailure('the video is damaged or in a format that cannot be read'));
      resolve(size > 0 ? Buffer.concat(chunks) : null);
    });
  });
}
