import { call } from '../../../api/client';
import { endpoints } from '../../../api/endpoints';
import type { UploadApi } from './types';

/** The manager's server calls over the app's API client (token and language headers included). */
export const httpUploadApi: UploadApi = {
  startMultipart: (id) => call(endpoints.startMultipart, { body: { id }, silent: true }),
  signParts: async (id, partNumbers) =>
    (await call(endpoints.signParts, { body: { id, partNumbers }, silent: true })).parts,
  partDone: async (id, part) => {
    await call(endpoints.partDone, { body: { id, ...part }, silent: true });
  },
  callback: async (id, status, uploadSchedule) => {
    await call(endpoints.finishUpload, { query: { id, status, uploadSchedule }, silent: true });
  },
  cancel: async (ids) => {
    await call(endpoints.cancelUploads, { body: { idList: ids } });
  },
};
