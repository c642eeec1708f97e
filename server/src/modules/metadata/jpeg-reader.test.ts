import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeWithExiftool } from '../../../test/exiftool-cli';
import { makeJpeg, makePng } from '../../../test/fixtures';
import { EmbeddedMetadataTool } from './exiftool';
import { extractMetadata } from './extract';
import { readJpegTags } from './jpeg-reader';

/** A camera's EXIF as ExifTool writes it. */
const CAMERA = [
  '-Make=Canon',
  '-Model=Canon EOS R5',
  '-LensModel=RF24-70mm F2.8 L IS USM',
  '-DateTimeOriginal=2026:05:04 10:20:30',
  '-SubSecTimeOriginal=123',
  '-OffsetTimeOriginal=+08:00',
  '-CreateDate=2026:05:04 10:20:31',
  '-Orientation#=6',
];
/** A photographer's XMP, in Chinese and English. */
const PHOTOGRAPHER = [
  '-XMP-dc:Title=春季新品 Spring',
  '-XMP-dc:Description=白色跑鞋',
  '-XMP-dc:Creator=张三',
  '-XMP-dc:Creator=Li Si',
  '-XMP-dc:Rights=© 2026 Brand',
  '-XMP-xmpRights:UsageTerms=仅限电商使用',
  '-XMP-dc:Subject=跑鞋',
  '-XMP-dc:Subject=white',
  '-XMP-xmp:Rating=4',
  '-XMP-xmp:Label=Red',
];

/** IPTC-IIM as a Lightroom export carries it, marked UTF-8. */
const IPTC = [
  '-IPTC:CodedCharacterSet=UTF8',
  '-IPTC:Keywords=一',
  '-IPTC:Keywords=two',
  '-IPTC:By-line=张三',
  '-IPTC:CopyrightNotice=© IPTC',
  '-IPTC:Caption-Abstract=iptc words',
  '-IPTC:ObjectName=obj',
  '-IPTC:DateCreated=2026:05:04',
  '-IPTC:TimeCreated=10:20:30+08:00',
];
/** A creator name over IPTC's 32 bytes, and what IPTC keeps of it. */
const LONG_CREATOR = 'Studio Photographer With A Long Name';

/** Written files the in-process reader must read exactly as ExifTool (with MWG) does. */
const SAME_AS_EXIFTOOL: Array<[string, string[], Record<string, unknown>?]> = [
  ['a camera and a photographer', [...CAMERA, ...PHOTOGRAPHER]],
  [
    'a camera only, GPS south-west',
    [...CAMERA, '-GPSLatitude=33.8688', '-GPSLatitudeRef=S', '-GPSLongitude=70.6693', '-GPSLongitudeRef=W'],
  ],
  [
    'EXIF text beating XMP (MWG)',
    ['-Artist=EXIF Artist; Second', '-Copyright=EXIF ©', '-ImageDescription=EXIF words', ...PHOTOGRAPHER],
  ],
  ['blank EXIF text yielding to XMP (MWG)', ['-Artist= ', '-Copyright= ', ...PHOTOGRAPHER]],
  ['UTF-8 in EXIF', ['-Artist=王五', '-Make=佳能', '-Model=EOS 测试']],
  [
    'XMP dates only',
    ['-XMP-photoshop:DateCreated=2026:05:04 10:20:30+02:00', '-XMP-xmp:CreateDate=2026:05:05 08:00:00Z'],
  ],
  ['a title in German only', ['-XMP-dc:Title-de=Frühling', '-XMP-dc:Subject=eins']],
  ['a zero date', ['-DateTimeOriginal=0000:00:00 00:00:00', '-XMP-photoshop:DateCreated=2026:01:02']],
  ['nothing written', []],
  [
    'IPTC alone (UTF-8)',
    IPTC,
    { keywords: ['一', 'two'], creator: '张三', capturedAt: '2026-05-04T10:20:30+08:00' },
  ],
  ['IPTC and XMP without a digest (XMP stands)', [...IPTC, ...PHOTOGRAPHER], { keywords: ['跑鞋', 'white'] }],
  [
    'IPTC and XMP whose digest differs (IPTC stands, cut values recovered from XMP)',
    [
      ...IPTC.filter((arg) => !arg.startsWith('-IPTC:By-line')),
      `-IPTC:By-line=${LONG_CREATOR.slice(0, 32)}`,
      `-XMP-dc:Creator=${LONG_CREATOR}`,
      ...PHOTOGRAPHER.filter((arg) => !arg.startsWith('-XMP-dc:Creator')),
      '-Photoshop:IPTCDigest=0123456789abcdef0123456789abcdef',
    ],
    { keywords: ['一', 'two'], creator: LONG_CREATOR, title: '春季新品 Spring' },
  ],
];

describe('the in-process JPEG reader (jpeg-reader.ts) beside ExifTool', { timeout: 120_000 }, () => {
  const tool = new EmbeddedMetadataTool();
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-jpeg-reader-'));
  });
  afterAll(async () => {
    await tool.end();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  async function fileOf(name: string, bytes: Buffer): Promise<string> {
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}.jpg`);
    await fsp.writeFile(file, bytes);
    return file;
  }

  it.each(SAME_AS_EXIFTOOL)('reads %s as ExifTool does', async (name, args, settled) => {
    const file = await fileOf(name, await writeWithExiftool(await makeJpeg(64, 48), 'jpg', args));
    const fast = await readJpegTags(file);
    expect(fast).not.toBeNull();
    const expected = extractMetadata(await tool.read(file));
    // Something was read wherever something was written: equal is not "both empty".
    if (args.length > 0) expect(expected).not.toEqual(extractMetadata({}));
    if (settled) expect(expected.metadata).toMatchObject(settled);
    expect(extractMetadata(fast!)).toEqual(expected);
  });

  it('reads ICC profiles (v2 sRGB, v4 Display P3) and attribute-form XMP as ExifTool does', async () => {
    const xmp = `<?xpacket begin="\u{feff}" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="3" xmp:Label="Green"/>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    for (const profile of ['srgb', 'p3']) {
      const bytes = await sharp(await makeJpeg(64, 48))
        .withIccProfile(profile)
        .withXmp(xmp)
        .jpeg()
        .toBuffer();
      const file = await fileOf(`icc-${profile}`, bytes);
      const fast = await readJpegTags(file);
      expect(fast).not.toBeNull();
      const expected = extractMetadata(await tool.read(file));
      expect(expected.metadata.iccProfile).not.toBeNull();
      expect(expected.metadata.rating).toBe(3);
      expect(extractMetadata(fast!)).toEqual(expected);
    }
  });

  it('reads IPTC and XMP that MWG wrote in step (digest stored) as ExifTool does', async () => {
    const withIptc = await writeWithExiftool(await makeJpeg(64, 48), 'jpg', IPTC);
    const bytes = await writeWithExiftool(withIptc, 'jpg', [
      '-use',
      'MWG',
      '-MWG:Keywords=both',
      '-MWG:Creator=Both Sides',
      '-MWG:Description=in step',
    ]);
    const file = await fileOf('mwg-in-step', bytes);
    const fast = await readJpegTags(file);
    expect(fast).not.toBeNull();
    const expected = extractMetadata(await tool.read(file));
    expect(expected.metadata).toMatchObject({
      keywords: ['both'],
      creator: 'Both Sides',
      description: 'in step',
    });
    expect(extractMetadata(fast!)).toEqual(expected);
  });

  it("reads the platform's own marks (XMP-skdam) as ExifTool does", async () => {
    const file = await fileOf('marks', await makeJpeg(64, 48));
    await tool.write(file, {
      'XMP-skdam:DamFileId': 'f-123',
      'XMP-skdam:DamArticleNumber': ['ART-1', 'ART-2'],
      'XMP-skdam:DamSignature': 'sig',
    } as never);
    const fast = await readJpegTags(file);
    expect(fast).not.toBeNull();
    const expected = extractMetadata(await tool.read(file));
    expect(expected.platform).toEqual({
      fileId: 'f-123',
      articleNumbers: ['ART-1', 'ART-2'],
      signature: 'sig',
    });
    expect(extractMetadata(fast!)).toEqual(expected);
  });

  it.each([
    ['IPTC in Latin (no UTF-8 mark)', ['-IPTC:Keywords=café', '-XMP-dc:Subject=xmp']],
    [
      'XMP naming a camera EXIF does not',
      ['-XMP-tiff:Make=Nikon', '-XMP-exif:DateTimeOriginal=2026:01:01 00:00:00'],
    ],
    ['a Photoshop colour mode', ['-XMP-photoshop:ColorMode#=4']],
  ])('leaves a JPEG with %s to ExifTool', async (name, args) => {
    const file = await fileOf(name, await writeWithExiftool(await makeJpeg(64, 48), 'jpg', args));
    expect(await readJpegTags(file)).toBeNull();
  });

  it("does not expand a stranger's XML entities, and ends an EXIF directory chain that loops", async () => {
    const entities = Array.from({ length: 8 }, (_, i) => {
      const name = `e${i + 1}`;
      return `<!ENTITY ${name} "${`&e${i};`.repeat(10)}">`;
    }).join('');
    const xmp = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e0 "lollollol">${entities}]>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Label>&e8;</xmp:Label></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const bomb = await sharp(await makeJpeg(8, 8))
      .withXmp(xmp)
      .jpeg()
      .toBuffer();
    const read = await readJpegTags(await fileOf('entities', bomb));
    expect(String(read?.Label ?? '').length).toBeLessThan(100);
    // IFD0 with one entry (Make) whose next-directory offset points back at itself.
    const exif = Buffer.from(
      'Exif\0\0II*\0\x08\0\0\0\x01\0\x0f\x01\x02\0\x06\0\0\0\x1a\0\0\0\x08\0\0\0Canon\0',
      'latin1',
    );
    const segment = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), exif]);
    segment.writeUInt16BE(exif.length + 2, 2);
    const jpeg = await makeJpeg(8, 8);
    const looped = Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
    expect(await readJpegTags(await fileOf('loop', looped))).toMatchObject({ Make: 'Canon' });
  });

  it('leaves what is no JPEG, or a JPEG whose segments run over 1 MiB, to ExifTool', async () => {
    expect(await readJpegTags(await fileOf('png', await makePng(64, 48)))).toBeNull();
    const comment = 'x'.repeat(60_000);
    let bytes = await makeJpeg(64, 48);
    // Twenty 60 KB comment segments before the image data: 1.2 MB of head.
    const segment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2), Buffer.from(comment)]);
    segment.writeUInt16BE(comment.length + 2, 2);
    bytes = Buffer.concat([bytes.subarray(0, 2), ...Array(20).fill(segment), bytes.subarray(2)]);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg' });
    expect(await readJpegTags(await fileOf('long-head', bytes))).toBeNull();
    expect(await readJpegTags(await fileOf('truncated', bytes.subarray(0, 1000)))).toBeNull();
  });
});
