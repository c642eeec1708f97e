// Runs `npm test`'s steps side by side (scripts/test.mjs): a step starts once the steps it comes
// after have passed and a slot is free, in the order listed. Each line a step prints is shown as it
// comes, behind the step's tag, so a long run shows where it is; the first failing step stops the
// others (their whole process groups) and the run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

/**
 * @typedef {object} Step
 * @property {string} name
 * @property {string[]} command
 * @property {Record<string, string>} [env]
 * @property {string[]} [after] names of steps that must pass first (ignored when not chosen)
 */

const root = path.resolve(import.meta.dirname, '..');
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
/** A short tag for each line: the step's name up to its first parenthesis. */
const tagOf = (name) => `[${name.replace(/\s*\(.*$/, '')}]`;

/**
 * @param {Step[]} steps
 * @param {{ env: NodeJS.ProcessEnv, slots: number }} options
 * @returns {Promise<boolean>} whether every step passed
 */
export function runSteps(steps, { env, slots }) {
  const chosen = new Set(steps.map((step) => step.name));
  const waiting = [...steps];
  const passed = new Set();
  /** @type {Map<string, { child: import('node:child_process').ChildProcess, started: number }>} */
  const running = new Map();
  const timings = [];
  const runStarted = Date.now();
  let failed = false;

  return new Promise((resolve) => {
    const heartbeat = setInterval(() => {
      const now = [...running].map(([name, { started }]) => `${tagOf(name)} ${seconds(started)}`);
      console.log(`… ${seconds(runStarted)} in: running ${now.join(', ')}`);
    }, 300_000);

    // SIGINT, as Ctrl-C: Playwright then stops the servers it started, which run in process groups
    // of their own (on SIGTERM they were left listening, and the next run found their ports taken).
    const stopAll = () => {
      for (const { child } of running.values()) {
        try {
          process.kill(-child.pid, 'SIGINT');
        } catch {
          // already gone
        }
      }
    };
    const finish = (ok) => {
      clearInterval(heartbeat);
      console.log('\nsteps:');
      for (const [name, took, outcome] of timings) console.log(`  ${outcome} ${took.padStart(8)}  ${name}`);
      resolve(ok);
    };
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.once(signal, () => {
        failed = true;
        stopAll();
        process.exit(1);
      });
    }

    const ready = (step) => (step.after ?? []).every((name) => passed.has(name) || !chosen.has(name));
    const startWhatCan = () => {
      if (failed) return;
      for (const step of [...waiting]) {
        if (running.size >= slots) break;
        if (!ready(step)) continue;
        waiting.splice(waiting.indexOf(step), 1);
        start(step);
      }
      if (running.size === 0 && waiting.length === 0) finish(true);
    };

    const start = (step) => {
      const [command, ...args] = step.command;
      const tag = tagOf(step.name);
      console.log(`\n▶ ${step.name}`);
      // Its own process group, so stopping it stops what it started (servers, browsers, workers).
      const child = spawn(command, args, {
        cwd: root,
        env: { ...env, ...step.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      running.set(step.name, { child, started: Date.now() });
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => console.log(`${tag} ${line}`));
      }
      child.on('close', (code, signal) => {
        const { started } = running.get(step.name);
        running.delete(step.name);
        if (failed) return;
        if (code === 0) {
          timings.push([step.name, seconds(started), '✔']);
          console.log(`✔ ${step.name} (${seconds(started)})`);
          passed.add(step.name);
          startWhatCan();
          return;
        }
        failed = true;
        timings.push([step.name, seconds(started), '✖']);
        console.error(
          `\n✖ ${step.name} failed after ${seconds(started)} (${step.command.join(' ')}: ${signal ?? `exit ${code}`})`,
        );
        stopAll();
        finish(false);
      });
    };

    startWhatCan();
  });
}
