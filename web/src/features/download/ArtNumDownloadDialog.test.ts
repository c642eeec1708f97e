import type { Item } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { artNumDownloadRequest } from './ArtNumDownloadDialog';
import { downloadRequest } from './DownloadDialog';

describe('download by article numbers', () => {
  it('sends the pasted numbers split and de-duplicated, every format when "all" is ticked', () => {
    expect(artNumDownloadRequest('A1, a1\nB2  C3', ['all'], null)).toEqual({
      artNumList: ['A1', 'B2', 'C3'],
      formats: [],
    });
    expect(artNumDownloadRequest('A1', ['jpg', 'psd'], 7)).toEqual({
      artNumList: ['A1'],
      formats: ['jpg', 'psd'],
      presetId: 7,
    });
  });

  it('has nothing to send for blank text', () => {
    expect(artNumDownloadRequest(' ,\n ', ['all'], null)).toBeNull();
  });
});

describe('download request with a preset', () => {
  it('names the preset and leaves the size to it', () => {
    const items = [{ id: 1, type: 2, fileFormat: 'jpg' } as Item];
    expect(downloadRequest(items, { 1: ['jpg'] }, [], 1200, 3)).toEqual({
      downloadFolderDataDTOList: [{ folderDataId: 1, fileFormatList: ['jpg'] }],
      presetId: 3,
    });
  });
});
