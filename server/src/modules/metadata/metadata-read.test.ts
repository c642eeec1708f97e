import { endpoints, type RecordMetadata } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { readWithExiftool, writeWithExiftool } from '../../../test/exiftool-cli';
import { givenProcessedFile, givenSignedInUser, signInAdmin, uniqueName } from '../../../test/factories';
import { makeJpeg, makeMp4, makePdf, makePng, makePsd, makeTiff } from '../../../test/fixtures';
import { createTestApp, get, type TestApp } from '../../../test/harness';

/** What a photographer's tools write: EXIF, IPTC and XMP, in Chinese and English. */
const WRITTEN = [
  '-Make=Canon',
  '-Model=Canon EOS R5',
  '-LensModel=RF24-70mm F2.8 L IS USM',
  '-DateTimeOriginal=2026:05:04 10:20:30',
  '-OffsetTimeOriginal=+08:00',
  '-Orientation#=6',
  '-GPSLatitude=31.2304',
  '-GPSLatitudeRef=N',
  '-GPSLongitude=121.4737',
  '-GPSLongitudeRef=E',
  '-XMP-dc:Title=春季新品 Spring',
  '-XMP-dc:Description=白色跑鞋',
  '-XMP-dc:Creator=张三',
  '-XMP-dc:Rights=© 2026 Brand',
  '-XMP-xmpRights:UsageTerms=仅限电商使用',
  '-XMP-dc:Subject=跑鞋',
  '-XMP-dc:Subject=white',
  '-XMP-xmp:Rating=4',
  '-XMP-xmp:Label=Red',
];

describe('metadata read at upload (ExifTool in the media job, compared with Debian ExifTool)', {
  timeout: 120_000,
}, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
    token = await signInAdmin(t);
  });
  afterAll(() => t.close());

  async function metadataOf(itemId: number, as = token): Promise<RecordMetadata[]> {
    const response = await get(t.app, `${endpoints.fileMetadata.path}?folderDataId=${itemId}`, { token: as });
    return resultOf(endpoints.fileMetadata, response.body).records;
  }

  it.each([
    ['jpg', () => makeJpeg(320, 240)],
    ['tif', () => makeTiff(320, 240)],
    ['png', () => makePng(320, 240)],
  ] as const)(
    'reads from a %s what an independent ExifTool wrote, as that ExifTool reads it back',
    async (extension, make) => {
      const bytes = await writeWithExiftool(await make(), extension, WRITTEN);
      const independent = await readWithExiftool(bytes, extension);
      const { itemId } = await givenProcessedFile(t, token, {
        fileName: `${uniqueName('shoe')}.${extension}`,
        bytes,
      });
      const [record] = await metadataOf(itemId);
      expect(record?.status).toBe('ready');
      const read = record!.metadata!;
      expect(read.camera).toBe(independent['IFD0:Model']);
      expect(read.lens).toBe(independent['ExifIFD:LensModel']);
      expect(read.capturedAt).toBe('2026-05-04T10:20:30+08:00');
      expect(read.orientation).toBe(independent['IFD0:Orientation']);
      expect(read.gps?.latitude).toBeCloseTo(independent['GPS:GPSLatitude'] as number, 6);
      expect(read.gps?.longitude).toBeCloseTo(independent['GPS:GPSLongitude'] as number, 6);
      expect(read.title).toBe(independent['XMP-dc:Title']);
      expect(read.description).toBe(independent['XMP-dc:Description']);
      // A list of one is printed as its value.
      expect(read.creator).toBe([independent['XMP-dc:Creator']].flat().join('; '));
      expect(read.copyright).toBe(independent['XMP-dc:Rights']);
      expect(read.usageTerms).toBe(independent['XMP-xmpRights:UsageTerms']);
      expect(read.keywords).toEqual(independent['XMP-dc:Subject']);
      expect(read.rating).toBe(independent['XMP-xmp:Rating']);
      expect(read.label).toBe(independent['XMP-xmp:Label']);
    },
  );

  it('reads IPTC alone (no XMP), as older tools write it', async () => {
    const bytes = await writeWithExiftool(await makeJpeg(200, 150), 'jpg', [
      '-IPTC:CodedCharacterSet=UTF8',
      '-IPTC:ObjectName=旧款',
      '-IPTC:By-line=李四',
      '-IPTC:CopyrightNotice=Brand Ltd',
      '-IPTC:Keywords=皮鞋',
      '-IPTC:Keywords=black',
    ]);
    const { itemId } = await givenProcessedFile(t, token, { fileName: 'iptc.jpg', bytes });
    const read = (await metadataOf(itemId))[0]!.metadata!;
    expect(read).toMatchObject({
      title: '旧款',
      creator: '李四',
      copyright: 'Brand Ltd',
      keywords: ['皮鞋', 'black'],
    });
    expect(read.capturedAt).toBeNull();
    expect(read.gps).toBeNull();
  });

  it('reads a PDF’s page count and title, a PSD’s layers, a video’s duration, codec and frame rate', async () => {
    const pdf = await writeWithExiftool(makePdf(3), 'pdf', ['-PDF:Title=产品手册']);
    const psd = await makePsd(320, 240);
    const video = makeMp4();
    const independent = {
      psd: await readWithExiftool(psd, 'psd'),
      video: await readWithExiftool(video, 'mp4'),
    };
    const files = await Promise.all([
      givenProcessedFile(t, token, { fileName: 'manual.pdf', bytes: pdf }),
      givenProcessedFile(t, token, { fileName: 'layers.psd', bytes: psd }),
      givenProcessedFile(t, token, { fileName: 'clip.mp4', bytes: video }),
    ]);
    const [ofPdf, ofPsd, ofVideo] = await Promise.all(
      files.map(async ({ itemId }) => (await metadataOf(itemId))[0]!.metadata!),
    );
    expect(ofPdf).toMatchObject({ pageCount: 3, title: '产品手册' });
    expect(ofPsd!.layerCount).toBe(independent.psd['Photoshop:LayerCount']);
    expect(ofVideo!.duration).toBeCloseTo(independent.video['QuickTime:Duration'] as number, 2);
    expect(ofVideo!.videoCodec).toBe(independent.video['Track1:CompressorID']);
    expect(ofVideo!.frameRate).toBeCloseTo(independent.video['Track1:VideoFrameRate'] as number, 2);
  });

  it('keeps a hostile file’s fields bounded and free of control characters', async () => {
    const long = `${'长'.repeat(3000)}\u0001`;
    const bytes = await writeWithExiftool(await makeJpeg(200, 150), 'jpg', [
      `-XMP-dc:Title=${long}`,
      ...Array.from({ length: 300 }, (_, index) => `-XMP-dc:Subject=kw${index}`),
    ]);
    const { itemId } = await givenProcessedFile(t, token, { fileName: 'hostile.jpg', bytes });
    const read = (await metadataOf(itemId))[0]!.metadata!;
    expect([...read.title!].length).toBe(1000);
    expect(read.title?.includes(String.fromCharCode(1))).toBe(false);
    expect(read.keywords).toHaveLength(200);
  });

  it('answers a file the caller cannot see like one that does not exist', async () => {
    const bytes = await writeWithExiftool(await makeJpeg(200, 150), 'jpg', ['-XMP-dc:Creator=王五']);
    const { itemId } = await givenProcessedFile(t, token, { fileName: 'private.jpg', bytes });
    const stranger = await givenSignedInUser(t);
    const hidden = await get(t.app, `${endpoints.fileMetadata.path}?folderDataId=${itemId}`, {
      token: stranger.token,
    });
    const unknown = await get(t.app, `${endpoints.fileMetadata.path}?folderDataId=${itemId + 100_000}`, {
      token: stranger.token,
    });
    expect(hidden.body.errorCode).toBe('SE_404');
    expect(hidden.body).toEqual(unknown.body);
  });
});
