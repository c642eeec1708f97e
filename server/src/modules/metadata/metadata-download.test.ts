import { endpoints } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import { readWithExiftool, writeWithExiftool } from '../../../test/exiftool-cli';
import { givenDimension, givenProcessedFile, signInAdmin, uniqueName } from '../../../test/factories';
import { makeJpeg, makePdf, makePng, makePsd, makeTiff } from '../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';
import { platformSignature } from './embed';
import { METADATA_SIGNATURE_SECRET } from './wiring';

/** What the photographer's file carried when it was uploaded. */
const PHOTOGRAPHER = [
  '-Make=Canon',
  '-Model=Canon EOS R5',
  '-GPSLatitude=31.2304',
  '-GPSLatitudeRef=N',
  '-GPSLongitude=121.4737',
  '-GPSLongitudeRef=E',
  '-XMP-dc:Creator=张三',
  '-XMP-dc:Rights=© 2026 Brand',
  '-XMP-xmpRights:UsageTerms=仅限电商使用',
  '-XMP-dc:Subject=studio',
];

describe('metadata written into downloads, read back by Debian ExifTool', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  let colour: { name: string; tags: Record<string, number> };
  beforeAll(async () => {
    t = await createTestApp({}, { jobs: true });
    token = await signInAdmin(t);
    colour = await givenDimension(t, { name: uniqueName('颜色'), tags: ['白色', '黑色'] });
  });
  afterAll(() => t.close());

  /** A processed file with the photographer's metadata, an article number, validity and a tag. */
  async function givenDescribedFile(extension: string, bytes: Buffer, artNum: string) {
    const written = await writeWithExiftool(bytes, extension, PHOTOGRAPHER);
    const name = uniqueName('SHOE');
    const { itemId } = await givenProcessedFile(t, token, {
      fileName: `${name}.${extension}`,
      bytes: written,
    });
    await call(t.app, endpoints.editFile, {
      token,
      body: { folderDataId: itemId, artNum, startValidTime: '2026-01-01', endValidTime: '2027-06-30' },
    });
    await call(t.app, endpoints.modifyItemTags, {
      token,
      body: { folderDataIdList: [itemId], tagIdList: [colour.tags['白色'] as number] },
    });
    return { itemId, name, written };
  }

  const download = (body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: endpoints.downloadItems.path,
      payload: body,
      headers: { token, lang: 'en' },
    });

  it('writes article number, tags by dimension, title, validity and the file id into JPG, PNG, TIF and PSD originals, keeping what they carried', async () => {
    const files = {
      jpg: await givenDescribedFile('jpg', await makeJpeg(320, 240), 'AB1001'),
      png: await givenDescribedFile('png', await makePng(320, 240), 'AB1002'),
      tif: await givenDescribedFile('tif', await makeTiff(320, 240), 'AB1003'),
      psd: await givenDescribedFile('psd', await makePsd(320, 240), 'AB1004'),
    };
    const response = await download({ folderDataIdList: Object.values(files).map((file) => file.itemId) });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const zip = await readZip(response.rawPayload);
    const secret = await t.database.db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', METADATA_SIGNATURE_SECRET)
      .executeTakeFirstOrThrow();
    for (const [extension, file] of Object.entries(files)) {
      const read = await readWithExiftool(zip.get(`${file.name}.${extension}`)!, extension);
      const artNum = `AB100${Object.keys(files).indexOf(extension) + 1}`;
      expect(String(read['XMP-skdam:DamFileId']), extension).toBe(String(file.itemId));
      // A list of one is printed as its value by some writers' files, as a list by others.
      expect([read['XMP-skdam:DamArticleNumber']].flat(), extension).toEqual([artNum]);
      expect(read['XMP-dc:Identifier'], extension).toBe(artNum);
      expect([read['XMP-lr:HierarchicalSubject']].flat(), extension).toEqual([`${colour.name}|白色`]);
      expect(read['XMP-dc:Subject'], extension).toEqual(['studio', '白色']);
      expect(read['XMP-dc:Title'], extension).toBe(file.name);
      expect(read['XMP-dc:Rights'], extension).toBe('© 2026 Brand');
      expect(read['XMP-xmpRights:Marked'], extension).toBe(true);
      expect(read['XMP-xmpRights:UsageTerms'], extension).toBe('仅限电商使用');
      expect(read['XMP-plus:LicenseStartDate'], extension).toBe('2026:01:01');
      expect(read['XMP-plus:LicenseEndDate'], extension).toBe('2027:06:30');
      // What the file carried stays: camera, GPS, creator.
      expect(read['IFD0:Model'] ?? read['XMP-tiff:Model'], extension).toBe('Canon EOS R5');
      expect([read['XMP-dc:Creator']].flat(), extension).toEqual(['张三']);
      expect(read['GPS:GPSLatitude'] ?? read['XMP-exif:GPSLatitude'], extension).toBeCloseTo(31.2304, 4);
      // Signed: an id typed into a file by anyone else does not link it to the original.
      expect(read['XMP-skdam:DamSignature']).toBe(
        platformSignature(secret.value, String(file.itemId), [artNum]),
      );
      if (extension === 'png') expect(read['IPTC:ObjectName']).toBeUndefined();
      else
        expect(read, extension).toMatchObject({
          'IPTC:ObjectName': file.name,
          'IPTC:CopyrightNotice': '© 2026 Brand',
          'IPTC:Keywords': ['studio', '白色'],
        });
    }
  });

  it('sends one original with its own length, and a converted image with the platform’s metadata', async () => {
    const file = await givenDescribedFile('psd', await makePsd(320, 240), 'AB2001');
    const original = await download({
      downloadFolderDataDTOList: [{ folderDataId: file.itemId, fileFormatList: ['psd'] }],
    });
    expect(original.statusCode).toBe(200);
    expect(Number(original.headers['content-length'])).toBe(original.rawPayload.length);
    const converted = await download({
      downloadFolderDataDTOList: [{ folderDataId: file.itemId, fileFormatList: ['jpg'] }],
    });
    expect(converted.statusCode).toBe(200);
    const read = await readWithExiftool(converted.rawPayload, 'jpg');
    expect([read['XMP-skdam:DamArticleNumber']].flat()).toEqual(['AB2001']);
    expect(read['XMP-dc:Rights']).toBe('© 2026 Brand');
    // A conversion carries the platform's fields, not the camera's or its position.
    expect(read['GPS:GPSLatitude']).toBeUndefined();
  });

  it('strips everything but the colour profile when the download asks, GPS included', async () => {
    const tagged = await sharp(await makeJpeg(320, 240))
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    const file = await givenDescribedFile('jpg', tagged, 'AB3001');
    const response = await download({
      downloadFolderDataDTOList: [{ folderDataId: file.itemId, fileFormatList: ['jpg'] }],
      metadata: 'strip',
    });
    expect(response.statusCode).toBe(200);
    const read = await readWithExiftool(response.rawPayload, 'jpg');
    const kept = Object.keys(read).filter((name) => /^(GPS|XMP|IPTC|IFD0|ExifIFD)/.test(name));
    expect(kept).toEqual([]);
    expect(read['ICC_Profile:ProfileDescription']).toBe(
      (await readWithExiftool(tagged, 'jpg'))['ICC_Profile:ProfileDescription'],
    );
    const asStored = await download({
      downloadFolderDataDTOList: [{ folderDataId: file.itemId, fileFormatList: ['jpg'] }],
      metadata: 'keep',
    });
    expect(asStored.rawPayload.equals(file.written)).toBe(true);
  });

  it('writes nothing into a preset’s outputs when the preset strips', async () => {
    const file = await givenDescribedFile('tif', await makeTiff(320, 240), 'AB4001');
    const preset = await call(t.app, endpoints.saveDownloadPreset, {
      token,
      body: {
        name: uniqueName('电商无元数据'),
        format: 'jpg',
        longSidePx: 200,
        fileNameTemplate: '{artNum}_{index}',
        metadata: 'strip',
      },
    });
    expect(preset.metadata).toBe('strip');
    const response = await download({ folderDataIdList: [file.itemId], presetId: preset.id });
    expect(response.statusCode).toBe(200);
    const read = await readWithExiftool(response.rawPayload, 'jpg');
    expect(Object.keys(read).filter((name) => /^(XMP|IPTC|GPS)/.test(name))).toEqual([]);
  });

  it('converts a preset’s outputs to sRGB, or keeps the source’s profile when the preset says so', async () => {
    const p3 = await sharp(await makeJpeg(320, 240))
      .withIccProfile('p3')
      .png()
      .toBuffer();
    const file = await givenDescribedFile('png', p3, 'AB5001');
    const profileOf = async (colourProfile: 'srgb' | 'keep') => {
      const preset = await call(t.app, endpoints.saveDownloadPreset, {
        token,
        body: { name: uniqueName('colour'), format: 'jpg', fileNameTemplate: '{artNum}', colourProfile },
      });
      const response = await download({ folderDataIdList: [file.itemId], presetId: preset.id });
      expect(response.statusCode).toBe(200);
      return (await readWithExiftool(response.rawPayload, 'jpg'))['ICC_Profile:ProfileDescription'];
    };
    expect(await profileOf('keep')).toBe('sP3C');
    expect(await profileOf('srgb')).toMatch(/sRGB/);
  });

  it('puts an .xmp sidecar beside a format that cannot carry the metadata, only when asked', async () => {
    const pdf = await givenProcessedFile(t, token, {
      fileName: `${uniqueName('LOOKBOOK')}.pdf`,
      bytes: makePdf(),
    });
    await call(t.app, endpoints.editFile, { token, body: { folderDataId: pdf.itemId, artNum: 'AB3001' } });
    await call(t.app, endpoints.modifyItemTags, {
      token,
      body: { folderDataIdList: [pdf.itemId], tagIdList: [colour.tags['黑色'] as number] },
    });
    const jpg = await givenDescribedFile('jpg', await makeJpeg(64, 48), 'AB3002');

    const asked = await download({ folderDataIdList: [pdf.itemId, jpg.itemId], xmpSidecars: true });
    expect(asked.statusCode, asked.body.slice(0, 300)).toBe(200);
    const zip = await readZip(asked.rawPayload);
    const pdfName = [...zip.keys()].find((name) => name.endsWith('.pdf'))!;
    expect([...zip.keys()].sort()).toEqual([pdfName, `${pdfName}.xmp`, `${jpg.name}.jpg`].sort());
    const sidecar = await readWithExiftool(zip.get(`${pdfName}.xmp`)!, 'xmp');
    expect(String(sidecar['XMP-skdam:DamFileId'])).toBe(String(pdf.itemId));
    expect([sidecar['XMP-skdam:DamArticleNumber']].flat()).toEqual(['AB3001']);
    expect([sidecar['XMP-lr:HierarchicalSubject']].flat()).toEqual([`${colour.name}|黑色`]);
    expect(sidecar['IPTC:ObjectName']).toBeUndefined();

    // One PDF with its sidecar is a zip of two; without asking, or stripping, the PDF goes alone.
    const single = await download({ folderDataIdList: [pdf.itemId], xmpSidecars: true });
    expect([...(await readZip(single.rawPayload)).keys()]).toEqual([pdfName, `${pdfName}.xmp`]);
    const plain = await download({ folderDataIdList: [pdf.itemId] });
    expect(plain.headers['content-type']).toBe('application/pdf');
    const stripped = await download({ folderDataIdList: [pdf.itemId], xmpSidecars: true, metadata: 'strip' });
    expect(stripped.headers['content-type']).toBe('application/pdf');
  });
});
