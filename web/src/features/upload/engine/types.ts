import type { UploadStatus } from '@dam/contract';
/** Status of an upload task in the browser (SPEC §3 upload task). */
export const TaskStatus = { waiting: 0, uploading: 1, paused: 2, failed: 3, cancelled: 4 } as const;
export type TaskStatus = (typeof TaskStatus)[keyof typeof TaskStatus];

export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

export interface PartTarget {
  partNumber: number;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  /**
   * Whether the part is reported with part-done after the PUT (a store's address) or not (the
   * server's own part endpoint); absent from an older server's answer, which means reported.
   */
  reportDone?: boolean;
}

/** The server calls the manager needs (SPEC §7 uploads plus the multipart steps). */
export interface UploadApi {
  startMultipart(id: number): Promise<{ partSize: number; partCount: number; parts: StoredPart[] }>;
  signParts(id: number, partNumbers: number[]): Promise<PartTarget[]>;
  partDone(id: number, part: StoredPart): Promise<void>;
  /** Reports progress (uploading) or the end (done) of an upload (SPEC §4). */
  callback(
    id: number,
    status: typeof UploadStatus.uploading | typeof UploadStatus.done,
    uploadSchedule: number,
  ): Promise<void>;
  cancel(ids: number[]): Promise<void>;
}

/** Sends one part's bytes; resolves with the store's ETag. Rejects with PartRejected on HTTP errors. */
export interface PartTransport {
  put(
    target: PartTarget,
    body: Blob,
    signal: AbortSignal,
    onProgress: (loadedBytes: number) => void,
  ): Promise<{ etag: string }>;
}

export class PartRejected extends Error {
  override name = 'PartRejected';
  constructor(readonly status: number) {
    super(`part upload answered HTTP ${status}`);
  }
}

/** Whether the browser is online, and news when that changes. */
export interface NetworkStatus {
  isOnline(): boolean;
  subscribe(listener: (online: boolean) => void): () => void;
}

export interface NewTask {
  id: number;
  fileName: string;
  fileSize: number;
  file: Blob;
  /** Target folder path shown in the record list. */
  path: string;
  objectKey: string;
  /**
   * The upload dialog settled its near-duplicates (issue 17): compared there, or a new version.
   * The upload panel compares the others once they are done (plan §5.2).
   */
  similarChecked?: boolean;
}

export interface UploadTask extends NewTask {
  fileFormat: string;
  status: TaskStatus;
  /** 0–100. */
  process: number;
  /** Seconds left at the current speed, or null while unknown. */
  remainingTime: number | null;
  uploadStartTime: number | null;
  /** Last time the transfer made progress (epoch ms). */
  updateAt: number;
  retryTime: number;
  /** Parts stored so far (the checkpoint resumed from). */
  doneParts: number;
  error: 'task timeout' | 'upload failed' | null;
}

export type UploadEvent =
  | { type: 'network-error'; taskId: number }
  | { type: 'offline' }
  | { type: 'online' }
  | { type: 'finished'; taskId: number }
  | { type: 'failed'; taskId: number };
