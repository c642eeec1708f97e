import { LIMITS, UploadStatus } from '@dam/contract';
import { PartRejected, type PartTarget, type PartTransport, type UploadApi, type UploadTask } from './types';

/** Parts of one file in flight at once. */
const PARTS_IN_FLIGHT = 3;
const SIGN_BATCH = 20;

/**
 * Sends the parts of a task the store does not hold yet, PARTS_IN_FLIGHT at a time (a sliding window), keeping the
 * task's progress and time left current and recording progress with the server after more than
 * 3 parts (SPEC §4). Answers true when every part is stored, false when the transfer stopped
 * being the task's current one (paused, cancelled, retried); throws when a part cannot be sent.
 */
export async function sendMissingParts(
  task: UploadTask,
  running: { partsSinceRecord: number },
  deps: {
    api: UploadApi;
    transport: PartTransport;
    signal: AbortSignal;
    isCurrent: () => boolean;
    emit: () => void;
  },
): Promise<boolean> {
  const state = await deps.api.startMultipart(task.id);
  if (!deps.isCurrent()) return false;
  const stored = new Map(state.parts.map((p) => [p.partNumber, p.size]));
  let storedBytes = [...stored.values()].reduce((a, b) => a + b, 0);
  task.doneParts = stored.size;
  const missing: number[] = [];
  for (let n = 1; n <= state.partCount; n++) if (!stored.has(n)) missing.push(n);
  const inFlight = new Map<number, number>();
  const startedAt = Date.now();
  const bytesAtStart = storedBytes;
  const progressed = () => {
    const sent = storedBytes + [...inFlight.values()].reduce((a, b) => a + b, 0);
    task.process = task.fileSize === 0 ? 99 : Math.min(99, Math.floor((sent / task.fileSize) * 100));
    task.updateAt = Date.now();
    const elapsed = (task.updateAt - startedAt) / 1000;
    const rate = elapsed > 0 ? (sent - bytesAtStart) / elapsed : 0;
    task.remainingTime = rate > 0 ? Math.ceil((task.fileSize - sent) / rate) : null;
    deps.emit();
  };

  // A sliding window: each of the PARTS_IN_FLIGHT workers takes the next part as soon as its own
  // is stored, and the next SIGN_BATCH signatures are asked for while the last ones are still
  // unused, so no worker waits for the slowest part of a batch (issue 12: batches of 20 that
  // waited for their slowest part kept uploads well below the transport's ceiling).
  const signed: PartTarget[] = [];
  let unsigned = 0;
  let signing: Promise<void> | null = null;
  const signMore = () => {
    signing ??= (async () => {
      const numbers = missing.slice(unsigned, unsigned + SIGN_BATCH);
      unsigned += numbers.length;
      try {
        signed.push(...(await deps.api.signParts(task.id, numbers)));
      } catch (error) {
        // Asked for again by the next part that needs them (one signing at a time).
        unsigned -= numbers.length;
        throw error;
      }
    })().finally(() => {
      signing = null;
    });
    return signing;
  };
  const nextTarget = async (): Promise<PartTarget | undefined> => {
    while (signed.length === 0 && unsigned < missing.length) await signMore();
    const target = signed.shift();
    if (signed.length < PARTS_IN_FLIGHT && unsigned < missing.length) void signMore().catch(() => {});
    return target;
  };
  let stopped = false;
  const worker = async () => {
    for (let target = await nextTarget(); target && !stopped; target = await nextTarget()) {
      if (!deps.isCurrent()) {
        stopped = true;
        return;
      }
      const start = (target.partNumber - 1) * state.partSize;
      const body = task.file.slice(start, Math.min(task.fileSize, start + state.partSize));
      const partNumber = target.partNumber;
      let result: { etag: string };
      // The target that stored the part says whether it is reported: after a re-sign, the new one
      // (signed perhaps by another server of a rolling deployment).
      let storedBy = target;
      try {
        result = await deps.transport.put(target, body, deps.signal, (loaded) => {
          inFlight.set(partNumber, loaded);
          progressed();
        });
      } catch (error) {
        // An expired signature: sign again once, the part is not lost.
        if (!(error instanceof PartRejected && error.status === 403)) throw error;
        storedBy = (await deps.api.signParts(task.id, [partNumber]))[0] as PartTarget;
        result = await deps.transport.put(storedBy, body, deps.signal, () => progressed());
      }
      if (!deps.isCurrent()) {
        stopped = true;
        return;
      }
      inFlight.delete(partNumber);
      // Absent (signed by an older server during a rolling deployment): reported, as before.
      if (storedBy.reportDone !== false)
        await deps.api.partDone(task.id, { partNumber, size: body.size, etag: result.etag });
      storedBytes += body.size;
      task.doneParts++;
      running.partsSinceRecord++;
      progressed();
      // SPEC §4: progress is recorded only when more than 3 parts finished since the last time.
      if (running.partsSinceRecord > LIMITS.partsBetweenProgressUpdates) {
        running.partsSinceRecord = 0;
        await deps.api.callback(task.id, UploadStatus.uploading, task.process);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(PARTS_IN_FLIGHT, missing.length) }, worker));
  } catch (error) {
    // One failed part stops the others taking new ones; the caller retries or reports.
    stopped = true;
    throw error;
  }
  if (stopped || !deps.isCurrent()) return false;
  return true;
}
