import fs from 'node:fs/promises';
import { PreviewStatus } from '@dam/contract';
import type { UploadRow } from '../db/schema';
import type { UploadsRepository } from '../modules/uploads/repository';
import type { ObjectStorage } from '../storage/storage';
import { MissingToolError, run } from './tools';

export const playKeyOf = (storageKey: string) => `previews/${storageKey}.play.mp4`;

/** The longer side of a rendition: sharp enough to judge a shot, light enough to stream. */
export const RENDITION_SIDE = 1280;
/** A rendition is given at most this long (the media job's lease is an hour). */
const TRANSCODE_TIMEOUT_MS = 50 * 60 * 1000;

/** Containers and codecs Chromium, Firefox and Safari all play, so the original is streamed as it is. */
const PLAYABLE: Record<string, { video: Set<string>; audio: Set<string> }> = {
  mp4: { video: new Set(['h264', 'av1', 'vp9']), audio: new Set(['aac', 'mp3', 'opus', 'flac']) },
  m4v: { video: new Set(['h264']), audio: new Set(['aac', 'mp3']) },
  webm: { video: new Set(['vp8', 'vp9', 'av1']), audio: new Set(['vorbis', 'opus']) },
};

interface Probe {
  video: string | null;
  audio: string | null;
}

/** The codecs of the first video and audio streams (ffprobe). */
async function probe(file: string): Promise<Probe> {
  const out = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name', '-of', 'json', file],
    60_000,
  );
  const streams = (JSON.parse(out) as { streams?: Array<{ codec_type?: string; codec_name?: string }> })
    .streams;
  const first = (type: string) => streams?.find((s) => s.codec_type === type)?.codec_name ?? null;
  return { video: first('video'), audio: first('audio') };
}

/** Whether browsers play this file as it is. */
export function playsAsIs(format: string, codecs: Probe): boolean {
  const rule = PLAYABLE[format];
  if (!rule || !codecs.video || !rule.video.has(codecs.video)) return false;
  return codecs.audio === null || rule.audio.has(codecs.audio);
}

/**
 * SPEC §2 file detail "previews video": a video plays in the viewer. An MP4/WebM whose codecs every
 * browser plays is streamed as it is; anything else (MOV, AVI, MKV, MPEG, RMVB, HEVC…) gets an
 * H.264/AAC MP4 rendition, at most 1280 px on its longer side, its index at the front
 * (`+faststart`) so playback starts before the whole file arrives. Runs in the media job after
 * the thumbnail is stored, so the card shows while the rendition is made.
 */
export class VideoRenditions {
  constructor(
    private readonly deps: {
      uploads: UploadsRepository;
      storage: ObjectStorage;
      warn: (details: Record<string, unknown>, message: string) => void;
    },
  ) {}

  async make(upload: UploadRow, file: string, format: string): Promise<void> {
    try {
      const codecs = await probe(file);
      if (!codecs.video) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.none });
        return;
      }
      if (playsAsIs(format, codecs)) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.ready, play_key: null });
        return;
      }
      const out = `${file}.play.mp4`;
      try {
        await run('ffmpeg', transcodeArgs(file, out), TRANSCODE_TIMEOUT_MS);
        const key = playKeyOf(upload.storage_key);
        await this.deps.storage.writeFile(key, out, 'video/mp4');
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.ready, play_key: key });
      } finally {
        await fs.rm(out, { force: true });
      }
    } catch (error) {
      // The thumbnail stands; the viewer says the video cannot be played and offers the download.
      if (error instanceof MissingToolError) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.none });
        return;
      }
      this.deps.warn({ uploadId: upload.id, format }, `no playable video: ${(error as Error).message}`);
      await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.failed });
    }
  }
}

function transcodeArgs(input: string, output: string): string[] {
  const side = RENDITION_SIDE;
  return [
    '-v',
    'error',
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-vf',
    `scale=w='min(${side},iw)':h='min(${side},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    output,
  ];
}
