import { describe, expect, it } from 'vitest';
import { sendMissingParts } from './transfer';
import {
  PartRejected,
  type PartTarget,
  type PartTransport,
  type StoredPart,
  type UploadApi,
  type UploadTask,
} from './types';

const PART = 10;

/** A signed part's `reportDone` as a server says it: an older server leaves it out. */
const reportDoneOf = (value: boolean | 'absent') => (value === 'absent' ? {} : { reportDone: value });

/** A server with `count` parts to receive, and a transport whose parts finish when the test says. */
function given(
  count: number,
  options: {
    failSigningOnce?: number;
    reportDone?: boolean | 'absent';
    /** This part's first PUT is refused with 403 (an expired signature); its re-sign says `reportDone`. */
    expiredOnce?: { partNumber: number; reportDone: boolean | 'absent' };
  } = {},
) {
  const done: StoredPart[] = [];
  const signCalls: number[][] = [];
  const progressRecorded: number[] = [];
  let failures = options.failSigningOnce === undefined ? 0 : 1;
  /** Whether `expiredOnce`'s part was refused already (its next signature is the re-sign). */
  let expired = false;
  const api: UploadApi = {
    startMultipart: async () => ({ partSize: PART, partCount: count, parts: [] }),
    signParts: async (_id, numbers) => {
      signCalls.push(numbers);
      if (failures > 0 && numbers[0] === options.failSigningOnce) {
        failures--;
        throw new Error('signing refused once');
      }
      return numbers.map((partNumber) => ({
        partNumber,
        url: `part/${partNumber}`,
        method: 'PUT',
        headers: {},
        ...reportDoneOf(
          expired && partNumber === options.expiredOnce?.partNumber
            ? options.expiredOnce.reportDone
            : (options.reportDone ?? true),
        ),
      }));
    },
    partDone: async (_id, part) => {
      done.push(part);
    },
    callback: async (_id, _status, schedule) => {
      progressRecorded.push(schedule);
    },
    cancel: async () => {},
  };
  const started: number[] = [];
  const waiting = new Map<number, () => void>();
  const held = new Set<number>();
  let inFlight = 0;
  let mostInFlight = 0;
  const transport: PartTransport = {
    put: async (target: PartTarget, body: Blob) => {
      if (!expired && target.partNumber === options.expiredOnce?.partNumber) {
        expired = true;
        throw new PartRejected(403);
      }
      started.push(target.partNumber);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (held.has(target.partNumber)) {
        await new Promise<void>((resolve) => waiting.set(target.partNumber, resolve));
      }
      await Promise.resolve();
      inFlight--;
      return { etag: `"${target.partNumber}-${body.size}"` };
    },
  };
  const task = {
    id: 1,
    file: new Blob([new Uint8Array(count * PART)]),
    fileSize: count * PART,
    doneParts: 0,
    process: 0,
  } as unknown as UploadTask;
  const run = () =>
    sendMissingParts(
      task,
      { partsSinceRecord: 0 },
      {
        api,
        transport,
        signal: new AbortController().signal,
        isCurrent: () => true,
        emit: () => {},
      },
    );
  return {
    run,
    task,
    done,
    started,
    held,
    waiting,
    signCalls,
    progressRecorded,
    mostInFlight: () => mostInFlight,
  };
}

const settle = async () => {
  for (let i = 0; i < 200; i++) await Promise.resolve();
};

describe('sending the parts of one file', () => {
  it('keeps three parts in flight across signing batches: a slow part holds back no other', async () => {
    const world = given(45);
    world.held.add(1);
    const finished = world.run();
    await settle();
    // Part 1 is still on its way, yet every other part (beyond the first batch of 20 signed) went.
    expect(world.started.filter((n) => n !== 1).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 44 }, (_, i) => i + 2),
    );
    expect(world.mostInFlight()).toBe(3);
    world.waiting.get(1)?.();
    expect(await finished).toBe(true);
    expect(world.done.map((p) => p.partNumber).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 45 }, (_, i) => i + 1),
    );
    // Signed 20 at a time, each part once.
    expect(world.signCalls.map((numbers) => numbers.length)).toEqual([20, 20, 5]);
  });

  it('asks again for signatures that failed once, and loses no part', async () => {
    const world = given(30, { failSigningOnce: 21 });
    expect(await world.run()).toBe(true);
    expect(world.done.map((p) => p.partNumber).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    expect(world.signCalls.filter((numbers) => numbers[0] === 21)).toHaveLength(2);
  });

  it('reports no part-done for parts the server’s own part address recorded, and still counts them', async () => {
    const world = given(25, { reportDone: false });
    expect(await world.run()).toBe(true);
    expect(world.done).toEqual([]);
    expect(world.started.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(world.task.doneParts).toBe(25);
    expect(world.task.process).toBe(99);
    // SPEC §4: progress recorded after every 4 parts (more than 3 since the last record).
    expect(world.progressRecorded).toHaveLength(6);
  });

  it('reports every part when the signing server does not say (an older server mid-deployment)', async () => {
    const world = given(5, { reportDone: 'absent' });
    expect(await world.run()).toBe(true);
    expect(world.done.map((p) => p.partNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('signs a part again after a 403 and reports it as the new signature says', async () => {
    // Signed first where parts are reported (a store), again by a server whose own part address
    // records them: part 2 is stored once and not reported; the others are.
    const reported = given(5, { expiredOnce: { partNumber: 2, reportDone: false } });
    expect(await reported.run()).toBe(true);
    expect(reported.started.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    expect(reported.done.map((p) => p.partNumber).sort((a, b) => a - b)).toEqual([1, 3, 4, 5]);
    expect(reported.task.doneParts).toBe(5);
    expect(reported.signCalls).toContainEqual([2]);
    // And the other way round: signed by the server's part address, again for a store.
    const toStore = given(5, { reportDone: false, expiredOnce: { partNumber: 4, reportDone: true } });
    expect(await toStore.run()).toBe(true);
    expect(toStore.done.map((p) => p.partNumber)).toEqual([4]);
    // Re-signed by an older server, which does not say: reported, as every part was then.
    const byOlder = given(3, { reportDone: false, expiredOnce: { partNumber: 3, reportDone: 'absent' } });
    expect(await byOlder.run()).toBe(true);
    expect(byOlder.done.map((p) => p.partNumber)).toEqual([3]);
  });
});
