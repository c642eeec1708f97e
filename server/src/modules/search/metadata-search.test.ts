import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/call';
import { writeWithExiftool } from '../../../test/exiftool-cli';
import {
  type FileToUpload,
  givenDepartment,
  givenFolder,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
  uploadFiles,
} from '../../../test/factories';
import { makeJpeg, makePng } from '../../../test/fixtures';
import { createTestApp, post, type TestApp } from '../../../test/harness';

/**
 * The search on embedded metadata (issue 42 item 2): files written by Debian's ExifTool, uploaded
 * through the real pipeline and read by its media job; each filter finds exactly its files, the
 * filters combine with each other and with the title, and a file the caller may not see is never
 * among them.
 */
describe('search by embedded metadata', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: string;
  let designer: string;
  let outsider: string;
  let folderId: number;
  let outsiderFolderId: number;
  /** Every value written carries it: the file's data is this test's alone. */
  const mark = uniqueName('md').toLowerCase();
  const names: Record<string, string> = {};

  const photo = async (extension: 'jpg' | 'png', args: string[]) =>
    writeWithExiftool(
      extension === 'jpg' ? await makeJpeg(160, 120) : await makePng(160, 120),
      extension,
      args,
    );

  /** Uploads into a folder and waits for the media job, which reads the metadata. */
  const upload = async (token: string, folder: number, files: FileToUpload[]) => {
    const ids = await uploadFiles(t, token, files, { targetFolderId: folder });
    for (const id of ids) await t.jobs!.mediaDone(id);
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' }, { jobs: true });
    admin = await signInAdmin(t);
    const scopes = { view: 'dept', upload: 'dept', download: 'dept' } as const;
    const design = await givenDepartment(t, { token: admin });
    const sales = await givenDepartment(t, { token: admin });
    designer = (await givenSignedInUser(t, { deptId: design.id, scopes })).token;
    outsider = (await givenSignedInUser(t, { deptId: sales.id, scopes })).token;
    folderId = (await givenFolder(t, designer)).id;
    outsiderFolderId = (await givenFolder(t, outsider)).id;
    for (const key of ['canon', 'nikon', 'plain', 'hidden', 'versioned']) names[key] = uniqueName(`${key}`);
    await upload(designer, folderId, [
      {
        fileName: `${names.canon}.jpg`,
        bytes: await photo('jpg', [
          `-XMP-dc:Creator=张三 ${mark}`,
          `-XMP-dc:Rights=© 2026 Brand ${mark}`,
          '-Make=Canon',
          `-Model=Canon EOS R5 ${mark}`,
          `-XMP-dc:Subject=跑鞋${mark}`,
          `-XMP-dc:Subject=White${mark}`,
          // 10:20 in Shanghai: 4 May wherever the search is made.
          '-DateTimeOriginal=2026:05:04 10:20:30',
          '-OffsetTimeOriginal=+08:00',
        ]),
      },
      {
        fileName: `${names.nikon}.png`,
        bytes: await photo('png', [
          `-XMP-dc:Creator=Li Si ${mark}`,
          `-XMP-dc:Rights=Studio North ${mark}`,
          `-XMP-tiff:Model=NIKON Z 8 ${mark}`,
          `-XMP-dc:Subject=boot${mark}`,
          // 23:30 on 6 May in New York (7 May in UTC): the camera's day is the 6th.
          '-XMP-exif:DateTimeOriginal=2026:05:06 23:30:00-05:00',
        ]),
      },
      { fileName: `${names.plain}.jpg`, bytes: await makeJpeg(160, 120) },
    ]);
    // Another department's file: the designer may not see it.
    await upload(outsider, outsiderFolderId, [
      {
        fileName: `${names.hidden}.jpg`,
        bytes: await photo('jpg', [
          `-XMP-dc:Creator=张三 ${mark}`,
          `-XMP-dc:Subject=跑鞋${mark}`,
          '-DateTimeOriginal=2026:05:04 08:00:00',
        ]),
      },
    ]);
  });
  afterAll(() => t.close());

  const found = async (token: string, body: Record<string, unknown>) => {
    const result = await call(t.app, endpoints.search, {
      token,
      lang: 'en',
      body: { searchType: 1, pageSize: 200, ...body },
    });
    return result.list.map((item) => item.name).sort();
  };

  it('finds files by creator, copyright and camera as case-insensitive substrings', async () => {
    expect(await found(designer, { creator: `张三 ${mark}` })).toEqual([names.canon]);
    expect(await found(designer, { creator: mark.toUpperCase() })).toEqual([names.canon, names.nikon].sort());
    expect(await found(designer, { copyright: `studio north ${mark}` })).toEqual([names.nikon]);
    expect(await found(designer, { camera: `eos r5 ${mark}` })).toEqual([names.canon]);
    expect(await found(designer, { camera: `nikon z 8 ${mark}` })).toEqual([names.nikon]);
    // LIKE's wildcards are themselves.
    expect(await found(designer, { creator: `%${mark}` })).toEqual([]);
  });

  it('finds files by a whole embedded keyword, without regard to case', async () => {
    expect(await found(designer, { keyword: `white${mark}` })).toEqual([names.canon]);
    expect(await found(designer, { keyword: `BOOT${mark}` })).toEqual([names.nikon]);
    // A keyword is whole: a part of one finds nothing.
    expect(await found(designer, { keyword: `boot${mark.slice(0, -1)}` })).toEqual([]);
  });

  it('finds files by the local capture day, both ends counted', async () => {
    const both = [names.canon, names.nikon].sort();
    expect(
      await found(designer, { capturedFrom: '2026-05-04', capturedTo: '2026-05-06', creator: mark }),
    ).toEqual(both);
    expect(
      await found(designer, { capturedFrom: '2026-05-04', capturedTo: '2026-05-04', creator: mark }),
    ).toEqual([names.canon]);
    // The camera's own day, not the UTC one: 23:30 on the 6th in New York is not the 7th.
    expect(await found(designer, { capturedFrom: '2026-05-07', creator: mark })).toEqual([]);
    expect(await found(designer, { capturedFrom: '2026-05-05', creator: mark })).toEqual([names.nikon]);
    expect(await found(designer, { capturedTo: '2026-05-05', creator: mark })).toEqual([names.canon]);
  });

  it('combines the filters with AND, with each other and with the title and the scope', async () => {
    expect(await found(designer, { creator: mark, keyword: `boot${mark}` })).toEqual([names.nikon]);
    expect(await found(designer, { creator: '张三', keyword: `boot${mark}` })).toEqual([]);
    expect(await found(designer, { query: names.canon, creator: mark })).toEqual([names.canon]);
    expect(await found(designer, { query: names.nikon, camera: 'canon' })).toEqual([]);
    expect(await found(designer, { creator: mark, fileType: 1 })).toEqual([]);
    expect(await found(designer, { creator: mark, rankStatus: '1' })).toEqual(
      [names.canon, names.nikon].sort(),
    );
  });

  it('never shows a file the caller may not see', async () => {
    expect(await found(designer, { keyword: `跑鞋${mark}` })).toEqual([names.canon]);
    expect(await found(outsider, { keyword: `跑鞋${mark}` })).toEqual([names.hidden]);
    expect(
      await found(outsider, { capturedFrom: '2026-05-01', capturedTo: '2026-05-31', creator: mark }),
    ).toEqual([names.hidden]);
    expect(await found(admin, { creator: `张三 ${mark}` })).toEqual([names.canon, names.hidden].sort());
  });

  it('matches the current version of a file, not the metadata of the one it replaced', async () => {
    const versioned = names.versioned as string;
    await upload(designer, folderId, [
      { fileName: `${versioned}.jpg`, bytes: await photo('jpg', [`-XMP-dc:Creator=Old ${mark}`]) },
    ]);
    const [item] = (
      await call(t.app, endpoints.search, { token: designer, body: { searchType: 1, query: versioned } })
    ).list;
    expect(await found(designer, { creator: `old ${mark}` })).toEqual([versioned]);
    await upload(designer, folderId, [
      {
        fileName: 'IMG_0001.jpg',
        bytes: await photo('jpg', [`-XMP-dc:Creator=New ${mark}`]),
        versionOfItemId: Number(item?.id),
      },
    ]);
    expect(await found(designer, { creator: `old ${mark}` })).toEqual([]);
    expect(await found(designer, { creator: `new ${mark}` })).toEqual([versioned]);
  });

  it('refuses bad input with SE_400 naming the field, in the caller’s language, and accepts a filter alone', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ creator: 'x'.repeat(31) }, 'creator', '30'],
      [{ camera: 'x'.repeat(31) }, 'camera', '30'],
      [{ keyword: 'k'.repeat(201) }, 'keyword', '200'],
      [{ capturedFrom: '2026-13-01' }, 'capturedFrom', 'format'],
      [{ capturedTo: '4 May 2026' }, 'capturedTo', 'format'],
      [{ capturedFrom: '2026-05-06', capturedTo: '2026-05-04' }, 'capturedTo', 'before the start date'],
    ];
    for (const [filter, field, words] of cases) {
      const response = await post(
        t.app,
        endpoints.search.path,
        { searchType: 1, ...filter },
        {
          token: designer,
          lang: 'en',
        },
      );
      expect(response.status, JSON.stringify(filter)).toBe(400);
      expect(response.body.errorCode).toBe('SE_400');
      expect(response.body.errorDesc).toContain(field);
      expect(response.body.errorDesc).toContain(words);
    }
    const zh = await post(
      t.app,
      endpoints.search.path,
      { searchType: 1, capturedFrom: '2026-05-06', capturedTo: '2026-05-04' },
      { token: designer, lang: 'zh' },
    );
    expect(zh.body.errorDesc).toContain('结束日期不能早于开始日期');
    // Blank fields are not a filter: an empty search is still refused.
    const blank = await post(
      t.app,
      endpoints.search.path,
      { searchType: 1, creator: '  ', keyword: '' },
      {
        token: designer,
        lang: 'en',
      },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.errorDesc).toContain('query');
  });
});
