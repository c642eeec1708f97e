import type { FileDetail } from '@dam/contract';
import dayjs, { type Dayjs } from 'dayjs';

/** The edit form's fields. */
export interface EditValues {
  name: string;
  validity: [Dayjs | null, Dayjs | null] | null;
  artNum: string;
}

export const initialOf = (file: FileDetail): EditValues => ({
  name: file.name,
  validity:
    file.expireStartTime || file.expireEndTime
      ? [
          file.expireStartTime ? dayjs(file.expireStartTime) : null,
          file.expireEndTime ? dayjs(file.expireEndTime) : null,
        ]
      : null,
  artNum: file.artNum ?? '',
});

/** What the form holds, compared as the save would send it. */
export const sent = (v: Partial<EditValues>) =>
  JSON.stringify([
    (v.name ?? '').trim(),
    v.validity?.[0]?.format('YYYY-MM-DD') ?? null,
    v.validity?.[1]?.format('YYYY-MM-DD') ?? null,
    (v.artNum ?? '').trim(),
  ]);
