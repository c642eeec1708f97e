import type { Item } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { downloadRequest } from './DownloadDialog';

const item = (id: number, type: number, fileFormat: string | null) => ({ id, type, fileFormat }) as Item;

describe('download request', () => {
  it('asks for the chosen formats per item, converting files when formats are added for all', () => {
    const items = [item(1, 2, 'jpg,psd'), item(2, 1, null)];
    expect(downloadRequest(items, { 1: ['psd'], 2: ['jpg', 'png'] }, ['png'], 1200)).toEqual({
      downloadFolderDataDTOList: [
        { folderDataId: 1, fileFormatList: ['psd', 'png'] },
        { folderDataId: 2, fileFormatList: ['jpg', 'png'] },
      ],
      equalScalingPx: 1200,
    });
  });

  it('has nothing to ask for when nothing is ticked', () => {
    expect(downloadRequest([item(1, 2, 'jpg')], { 1: [] }, [], null)).toBeNull();
  });
});
