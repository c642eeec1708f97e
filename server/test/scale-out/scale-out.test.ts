import { endpoints, PreviewStatus } from '@dam/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../call';
import { type Cluster, mediaJobs, mediaJobsSettled, startCluster } from '../cluster';
import { makeJpeg } from '../fixtures';
import { runLanes, uploadFiles } from '../over-http';
import { readZip } from '../zip';

const ADMIN = { email: 'cluster-admin@example.com', password: 'Cluster#2026' };

/**
 * Issue 12 goal 9: the platform scaled out — two stateless app processes and one `npm run worker`
 * on one PostgreSQL database and an S3-protocol store, behind a round-robin proxy — works as one.
 * Every call below goes through the proxy, so consecutive calls of one journey land on different
 * processes: a session, an upload, a download ticket or a share link made on one is used on the
 * other. The thumbnails are made by the worker alone (the apps run MEDIA_WORKERS=0), each once.
 * The 30-second load with its figures is `bench/scale-out.ts`.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')(
  'scaled out: two apps and a worker on PostgreSQL and S3 behind a round-robin proxy (PostgreSQL only)',
  () => {
    let cluster: Cluster;
    let database: pg.Client;
    let token: string;
    let folderId: number;
    const jpeg = async (seed: number) => makeJpeg(640 + seed, 480);

    beforeAll(async () => {
      cluster = await startCluster({ serverUrl: process.env.TEST_DATABASE_URL as string, admin: ADMIN });
      database = new pg.Client({ connectionString: cluster.databaseUrl });
      await database.connect();
      token = (
        await call(cluster.url, endpoints.login, {
          body: { userName: ADMIN.email, password: ADMIN.password, remember: false },
        })
      ).token;
      folderId = (
        await call(cluster.url, endpoints.createFolder, { token, body: { folderName: 'Cluster SS27' } })
      ).folderId;
    }, 300_000);
    afterAll(async () => {
      await database?.end();
      await cluster?.stop();
    });

    const mediaSettled = () => mediaJobsSettled(database, 60_000);

    it('uploads, makes each thumbnail once in the worker, searches, downloads and shares across processes', async () => {
      const names = ['CLU100-01_front', 'CLU100-01_side', 'CLU100-01_sole', 'CLU200-02_front'];
      const uploadIds = await uploadFiles(
        cluster.url,
        token,
        await Promise.all(
          names.map(async (name, index) => {
            const bytes = await jpeg(index);
            return {
              fileName: `${name}.jpg`,
              artNum: name.split('_')[0],
              size: bytes.length,
              part: () => bytes,
            };
          }),
        ),
        { targetFolderId: folderId },
      );
      expect(uploadIds).toHaveLength(4);
      await mediaSettled();

      // Exactly once: one job per upload, completed on its first run.
      const jobs = await mediaJobs(database);
      expect(jobs.map((job) => Number(job.upload_id)).sort()).toEqual([...uploadIds].sort());
      expect(jobs.every((job) => job.state === 'completed' && job.retry_count === 0)).toBe(true);

      const listing = await call(cluster.url, endpoints.folderListing, {
        token,
        query: { folderDataId: folderId, pageSize: 50 },
      });
      expect(listing.list.map((item) => item.name).sort()).toEqual(names);
      const ids = listing.list.map((item) => item.id);
      for (const id of ids) {
        const detail = await call(cluster.url, endpoints.fileDetail, { token, query: { id } });
        expect(detail.previewStatus).toBe(PreviewStatus.ready);
        // The thumbnail lives in the S3 store: its presigned address answers with a JPEG.
        const thumbnail = await fetch(new URL(detail.compactUrl as string, cluster.url));
        expect(thumbnail.status).toBe(200);
        expect(Buffer.from(await thumbnail.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      }

      const found = await call(cluster.url, endpoints.search, {
        token,
        body: { searchType: 3, artNumList: ['CLU100-01', 'CLU999-99'] },
      });
      expect(found.list.map((item) => item.name).sort()).toEqual(names.slice(0, 3));
      expect(found.unmatched).toEqual(['CLU999-99']);

      // A download ticket made on one app is redeemed on the other (the proxy alternates).
      const { url } = await call(cluster.url, endpoints.downloadTicket, {
        token,
        body: { folderDataIdList: [folderId] },
      });
      const zipped = await fetch(new URL(url, cluster.url));
      expect(zipped.status).toBe(200);
      const entries = await readZip(Buffer.from(await zipped.arrayBuffer()));
      expect([...entries.keys()].sort()).toEqual(names.map((name) => `Cluster SS27/${name}.jpg`));

      // A share link: made on one process, visited and downloaded through both.
      const { code } = await call(cluster.url, endpoints.createShare, {
        token,
        body: { folderIds: [folderId], needPassword: 0 },
      });
      const { shareToken } = await call(cluster.url, endpoints.visitShare, { params: { code } });
      const shared = await call(cluster.url, endpoints.shareFolder, {
        body: { folderId, shareToken: shareToken as string },
      });
      expect(shared.list.map((item) => item.name).sort()).toEqual(names);
      const one = await fetchBytes(cluster.url, endpoints.shareDownload, {
        body: { shareToken, folderDataIdList: [ids[0] as number] },
      });
      expect(one.statusCode).toBe(200);
      expect(one.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
      // Both apps served this journey.
      expect(cluster.proxy.served.every((count) => count > 5)).toBe(true);
    });

    it('holds the sign-in limit across processes', async () => {
      // Ten wrong passwords spread over both apps use up the identifier's minute (LOGIN_RATE_LIMIT
      // 10, counted in the database); the eleventh try is refused even with the right password.
      for (let i = 0; i < 10; i += 1) {
        const wrong = await attempt(cluster.url, endpoints.login, {
          body: { userName: ADMIN.email, password: `wrong-${i}`, remember: false },
        });
        expect(wrong.errorCode).not.toBe('SE_429');
        expect(wrong.success).toBe(false);
      }
      const refused = await attempt(cluster.url, endpoints.login, {
        body: { userName: ADMIN.email, password: ADMIN.password, remember: false },
      });
      expect(refused.status).toBe(429);
      expect(refused.errorCode).toBe('SE_429');
    });

    it('answers every call of a mixed load of uploads and listings, every job once', async () => {
      const before = new Set((await mediaJobs(database)).map((job) => job.upload_id));
      const uploaded: number[] = [];
      const bytes = await jpeg(99);
      const failures = await runLanes(5_000, [
        ...[1, 2].map((laneNo) => async (round: number) => {
          uploaded.push(
            ...(await uploadFiles(
              cluster.url,
              token,
              [{ fileName: `load-${laneNo}-${round}.jpg`, size: bytes.length, part: () => bytes }],
              { targetFolderId: folderId },
            )),
          );
        }),
        ...[1, 2, 3].map(() => async () => {
          await call(cluster.url, endpoints.folderListing, {
            token,
            query: { folderDataId: folderId, pageSize: 50 },
          });
        }),
      ]);
      expect(failures).toEqual([]);
      expect(cluster.proxy.failures).toBe(0);
      expect(uploaded.length).toBeGreaterThan(2);
      await mediaSettled();
      const jobs = (await mediaJobs(database)).filter((job) => !before.has(job.upload_id));
      expect(jobs.map((job) => Number(job.upload_id)).sort()).toEqual([...uploaded].sort());
      expect(jobs.every((job) => job.state === 'completed' && job.retry_count === 0)).toBe(true);
    });
  },
);
