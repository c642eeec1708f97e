import { spawn } from 'node:child_process';

/** A system program (ffmpeg, pdftoppm) that is not installed. */
export class MissingToolError extends Error {
  override name = 'MissingToolError';
  constructor(readonly tool: string) {
    super(`${tool} is not installed`);
  }
}

/** At most this much of a program's standard output is kept (probes print a few lines). */
const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Runs a program to completion, killed after `timeoutMs`; rejects with its stderr on a non-zero
 * exit. Answers its standard output (the first 64 KiB).
 */
export function run(command: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < MAX_OUTPUT_BYTES) stdout += chunk.toString();
    });
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
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} exited with ${code}: ${stderr.trim().slice(-500)}`));
    });
  });
}
