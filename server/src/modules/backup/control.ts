import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import type { BackupManifest } from './manifest';
import { BackupError } from './manifest';

/**
 * The local control channel of a server on the embedded database: PGlite's data directory belongs
 * to the one process that opened it, so `npm run backup` asks that process to take the backup.
 * A Unix socket in DATA_DIR (mode 0600): only someone with file access to DATA_DIR, who could copy
 * the database anyway, reaches it. One JSON line asks, JSON lines answer: progress, then the
 * manifest or an error.
 */
export const CONTROL_SOCKET = 'backup.sock';
/** Linux's limit on a socket path (sun_path), less its final NUL. */
const MAX_SOCKET_PATH = 107;

export interface BackupRequest {
  command: 'backup';
  /** Absolute. */
  out: string;
  withObjects: boolean;
}

type Answer = { progress: string } | { done: BackupManifest } | { error: string };

export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET);

/** Whether the socket path fits; a DATA_DIR too deep for one gets no control channel. */
export const controlSocketFits = (dataDir: string) =>
  Buffer.byteLength(controlSocketPath(dataDir)) <= MAX_SOCKET_PATH;

export async function startControlServer(
  dataDir: string,
  backup: (request: BackupRequest, progress: (message: string) => void) => Promise<BackupManifest>,
): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  // A socket left by a process that ended without closing it (the database is ours now).
  fs.rmSync(socketPath, { force: true });
  let busy = false;
  const server = net.createServer((socket) => {
    const send = (answer: Answer) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(answer)}\n`);
    };
    const lines = readline.createInterface({ input: socket });
    lines.once('line', async (line) => {
      try {
        const request = JSON.parse(line) as BackupRequest;
        if (request.command !== 'backup' || typeof request.out !== 'string' || !path.isAbsolute(request.out))
          throw new BackupError('unknown request');
        if (busy) throw new BackupError('a backup is already running in the server');
        busy = true;
        try {
          send({ done: await backup(request, (progress) => send({ progress })) });
        } finally {
          busy = false;
        }
      } catch (error) {
        send({ error: (error as Error).message });
      } finally {
        socket.end();
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // The socket is created (bound) within listen(): under a umask that leaves it to its owner.
    const oldMask = process.umask(0o177);
    try {
      server.listen(socketPath, () => resolve());
    } finally {
      process.umask(oldMask);
    }
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * Asks the server running on DATA_DIR to take a backup; answers 'not-running' when no server
 * listens there (no socket, or one left by a process that ended).
 */
export async function askServer(
  dataDir: string,
  request: BackupRequest,
  progress: (message: string) => void,
): Promise<BackupManifest | 'not-running'> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return 'not-running';
  const socket = net.connect(socketPath);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    if (['ECONNREFUSED', 'ENOENT'].includes((error as NodeJS.ErrnoException).code ?? ''))
      return 'not-running';
    throw error;
  }
  socket.write(`${JSON.stringify(request)}\n`);
  for await (const line of readline.createInterface({ input: socket })) {
    const answer = JSON.parse(line) as Answer;
    if ('progress' in answer) progress(answer.progress);
    else if ('done' in answer) return answer.done;
    else throw new BackupError(answer.error);
  }
  throw new BackupError('the server closed the control channel before the backup ended');
}

/** Whether a server answers on the control socket of DATA_DIR (restore refuses to run beside it). */
export async function serverListening(dataDir: string): Promise<boolean> {
  const socketPath = controlSocketPath(dataDir);
  if (!fs.existsSync(socketPath)) return false;
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
