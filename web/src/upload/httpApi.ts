import { api } from '../api/client';
import type { PartTarget, StoredPart, UploadApi } from './types';

const base = '/ske-api/v1_0/file-upload';

/** The manager's server calls over the app's API client (token and language headers included). */
export const httpUploadApi: UploadApi = {
  startMultipart: (id) =>
    api.post<{ partSize: number; partCount: number; parts: StoredPart[] }>(
      `${base}/multipart/start`,
      { id },
      { silent: true },
    ),
  signParts: async (id, partNumbers) =>
    (await api.post<{ parts: PartTarget[] }>(`${base}/multipart/sign`, { id, partNumbers }, { silent: true }))
      .parts,
  partDone: async (id, part) => {
    await api.post(`${base}/multipart/part-done`, { id, ...part }, { silent: true });
  },
  callback: async (id, status, uploadSchedule) => {
    await api.get(`${base}/callback`, { query: { id, status, uploadSchedule }, silent: true });
  },
  cancel: async (ids) => {
    await api.post(`${base}/cancel-upload`, { idList: ids });
  },
};
