import { chmodSync, closeSync, mkdirSync, openSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

/**
 * The embedded database is one process's (ADR 0022). Whoever opens it first holds its data folder
 * by listening on a local socket in it, `cabinet.sock`, which only the folder's owner may open.
 * The socket is both the lock — it answers while its process lives, even when that process is
 * busy, and dies with it — and the way other `cabinet` commands reach the holder.
 *
 * One request a connection: a JSON line from the client; JSON lines back (`out`, `err`), ending
 * with `{ "exit": code }` or `{ "busy": role }` when the holder does not take requests.
 */
export type HolderRole = 'server' | 'command';

export interface ControlRequest {
  command: string;
  options: Record<string, unknown>;
}

export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** What the holder does with a request; resolves to the exit code. */
export type RequestHandler = (request: ControlRequest, io: CommandIo) => Promise<number>;

export interface DataDirHold {
  role: HolderRole;
  release(): Promise<void>;
}

export class DataDirBusy extends Error {
  constructor(readonly dataDir: string) {
    super(`Another Cabinet process holds the data folder ${dataDir}.`);
  }
}

/** The folder's socket belongs to another user. */
export class ForeignSocket extends Error {
  constructor(readonly dataDir: string) {
    super(`The socket in the data folder ${dataDir} belongs to another user: no command is sent to it. Check who owns the folder.`);
  }
}

const SOCKET = 'cabinet.sock';
const MAX_LINE = 1024 * 1024;
/** A `cabinet` command sends its request as it connects; a connection silent this long is closed. */
const REQUEST_WAIT_MS = 10_000;
const STALE_TAKEOVER_MS = 10_000;
const directoryHandles = new Map<string, number>();

/**
 * The socket's address. A Unix socket path is limited to about 100 bytes; a deeper data folder is
 * reached through /proc/self/fd of an open handle on it (Linux), which is short.
 */
export function socketPath(dataDir: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\cabinet-${Buffer.from(path.resolve(dataDir)).toString('hex').slice(-40)}`;
  const direct = path.join(dataDir, SOCKET);
  if (Buffer.byteLength(direct) < 100 || process.platform !== 'linux') return direct;
  let fd = directoryHandles.get(dataDir);
  if (fd === undefined) {
    fd = openSync(dataDir, 'r');
    directoryHandles.set(dataDir, fd);
  }
  return `/proc/self/fd/${fd}/${SOCKET}`;
}

/**
 * Holds `dataDir` for this process, or throws DataDirBusy when a live process holds it. A socket
 * left by a process that died is taken over.
 */
export async function holdDataDir(dataDir: string, role: HolderRole, handle?: RequestHandler): Promise<DataDirHold> {
  mkdirSync(dataDir, { recursive: true });
  const address = socketPath(dataDir);
  const server = createServer((socket) => serve(socket, role, handle));
  // A client that misbehaves must not end the holder.
  server.on('error', () => {});
  for (;;) {
    if (await listen(server, address)) break;
    if (await answers(address)) throw new DataDirBusy(dataDir);
    // Nobody answers: the socket was left by a process that died. Take it over, one taker at a time.
    if (!(await takeover(dataDir, address))) await new Promise((r) => setTimeout(r, 100));
  }
  if (process.platform !== 'win32') chmodSync(path.join(dataDir, SOCKET), 0o600);
  return {
    role,
    release: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        const fd = directoryHandles.get(dataDir);
        if (fd !== undefined) {
          directoryHandles.delete(dataDir);
          closeSync(fd);
        }
      }),
  };
}

function listen(server: Server, address: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    // Only the owner may connect, from the moment the socket exists.
    const umask = process.umask(0o077);
    try {
      server.listen(address);
    } finally {
      process.umask(umask);
    }
  });
}

/** Whether a live process listens on the socket (a busy process still accepts: the kernel does). */
function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Removes a dead holder's socket under an exclusive `cabinet.sock.takeover` file, so that two
 * processes finding it dead together cannot remove the fresh socket one of them made meanwhile:
 * under the file, the socket is checked again before it goes. Returns false when another taker is
 * at work (a taker that died leaves a file older than a few seconds, which is cleared).
 */
async function takeover(dataDir: string, address: string): Promise<boolean> {
  const marker = path.join(dataDir, `${SOCKET}.takeover`);
  try {
    writeFileSync(marker, String(process.pid), { flag: 'wx' });
  } catch {
    try {
      if (Date.now() - statSync(marker).mtimeMs > STALE_TAKEOVER_MS) unlinkSync(marker);
    } catch {
      // Gone meanwhile: the other taker finished.
    }
    return false;
  }
  try {
    if (!(await answers(address))) unlinkSync(path.join(dataDir, SOCKET));
  } catch {
    // Already removed.
  } finally {
    unlinkSync(marker);
  }
  return true;
}

function serve(socket: Socket, role: HolderRole, handle: RequestHandler | undefined): void {
  socket.on('error', () => {});
  const send = (message: object) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  let buffered = '';
  socket.setEncoding('utf8');
  socket.setTimeout(REQUEST_WAIT_MS, () => socket.destroy());
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    if (buffered.length > MAX_LINE) return socket.destroy();
    const end = buffered.indexOf('\n');
    if (end < 0) return;
    socket.removeAllListeners('data');
    // The request is in: a command may take its time (a migration, say).
    socket.setTimeout(0);
    let request: ControlRequest;
    try {
      request = JSON.parse(buffered.slice(0, end)) as ControlRequest;
      if (typeof request.command !== 'string' || typeof request.options !== 'object' || request.options === null) throw new Error('malformed');
    } catch {
      send({ err: 'A malformed request.\n' });
      send({ exit: 2 });
      socket.end();
      return;
    }
    if (!handle) {
      send({ busy: role });
      socket.end();
      return;
    }
    handle(request, { out: (text) => send({ out: text }), err: (text) => send({ err: text }) })
      .then(
        (code) => send({ exit: code }),
        (error: unknown) => {
          send({ err: `${error instanceof Error ? error.message : String(error)}\n` });
          send({ exit: 1 });
        },
      )
      .finally(() => socket.end());
  });
}

export type SendResult = { exit: number } | { busy: HolderRole };

/** Sends a request to the process holding `dataDir`, relaying what it writes to `io`. */
export function sendToHolder(dataDir: string, request: ControlRequest, io: CommandIo, user = process.getuid?.()): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    // A command may carry a password: it goes only to a socket of this process's own user, never to
    // one another user put in a folder anyone can write to.
    if (user !== undefined && statSync(path.join(dataDir, SOCKET)).uid !== user) return reject(new ForeignSocket(dataDir));
    const socket = connect(socketPath(dataDir));
    let buffered = '';
    let result: SendResult | undefined;
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const message = JSON.parse(buffered.slice(0, end)) as { out?: string; err?: string; exit?: number; busy?: HolderRole };
        buffered = buffered.slice(end + 1);
        if (message.out !== undefined) io.out(message.out);
        if (message.err !== undefined) io.err(message.err);
        if (message.exit !== undefined) result = { exit: message.exit };
        if (message.busy !== undefined) result = { busy: message.busy };
      }
    });
    socket.once('error', reject);
    socket.once('close', () => (result ? resolve(result) : reject(new Error('The process holding the data folder closed the connection without an answer.'))));
  });
}
