import fs from 'node:fs/promises';
import path from 'node:path';
import { PreviewStatus } from '@dam/contract';
import type { UploadRow } from '../db/schema';
import type { SniffedContent } from '../modules/media/sniff';
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

/**
 * ffmpeg's input options for a stored video: the demuxer of the container its bytes are
 * (modules/media/sniff.ts), forced and the only one allowed — also for what a demuxer opens inside it, so
 * no HLS, concat or image-sequence reader ever starts — and no protocol but `file` (no http, no
 * concat:, no pipe), with QuickTime's external data references off. The path is given as a
 * `file:` URL, so no part of it is read as a protocol or a pattern (issue 38 item 2).
 */
export function ffmpegInput(file: string, content: SniffedContent): string[] {
  const demuxer = content.demuxer;
  if (content.kind !== 'video' || !demuxer) throw new Error(`not a video: ${content.format}`);
  return [
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    demuxer,
    '-f',
    demuxer,
    ...(demuxer === 'mov' ? ['-enable_drefs', '0'] : []),
    '-i',
    `file:${path.resolve(file)}`,
  ];
}

/** Names whose files browsers play as they are when their bytes are that container (sniffed name). */
const PLAYABLE_CONTAINER: Record<string, string> = { mp4: 'mp4', m4v: 'mp4', webm: 'webm' };

interface Probe {
  video: string | null;
  audio: string | null;
}

/** The codecs of the first video and audio streams (ffprobe). */
async function probe(file: string, content: SniffedContent): Promise<Probe> {
  const out = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name',
      '-of',
      'json',
      ...ffmpegInput(file, content),
    ],
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

  /** `format` is the file's name's; `content` what its bytes are (only a sniffed video gets here). */
  async make(upload: UploadRow, file: string, format: string, content: SniffedContent): Promise<void> {
    try {
      const codecs = await probe(file, content);
      if (!codecs.video) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.none });
        return;
      }
      // The original is streamed as it is only when its name and its bytes agree on the container.
      if (PLAYABLE_CONTAINER[format] === content.format && playsAsIs(format, codecs)) {
        await this.deps.uploads.update(upload.id, { play_status: PreviewStatus.ready, play_key: null });
        return;
      }
      const out = `${file}.play.mp4`;
      try {
        await run('ffmpeg', transcodeArgs(ffmpegInput(file, content), out), TRANSCODE_TIMEOUT_MS);
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

function transcodeArgs(input: string[], output: string): string[] {
  const side = RENDITION_SIDE;
  return [
    '-v',
    'error',
    '-y',
    ...input,
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
