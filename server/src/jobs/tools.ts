import { spawn } from 'node:child_process';

/** A system program (ffmpeg, pdftoppm) that is not installed. */
export class MissingToolError extends Error {
  override name = 'MissingToolError';
  constructor(readonly tool: string) {
    super(`${tool} is not installed`);
  }
}

/** Runs a program to completion; rejects with its stderr on a non-zero exit. */
export function run(command: string, args: string[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new MissingToolError(command) : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} exited with ${code}: ${stderr.trim().slice(-500)}`));
    });
  });
}
