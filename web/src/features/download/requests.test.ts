import type { Item } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { artNumDownloadRequest, collectionDownloadRequest, downloadRequest } from './requests';

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

describe('download request with a metadata choice', () => {
  it('leaves the default out and sends stripping or untouched originals', () => {
    const items = [{ id: 1, type: 2, fileFormat: 'jpg' } as Item];
    expect(
      downloadRequest(items, { 1: ['jpg'] }, [], null, null, { metadata: 'embed', xmpSidecars: false }),
    ).not.toHaveProperty('metadata');
    expect(
      downloadRequest(items, { 1: ['jpg'] }, [], null, null, { metadata: 'keep', xmpSidecars: false }),
    ).toMatchObject({
      metadata: 'keep',
    });
    expect(
      downloadRequest(items, { 1: ['jpg'] }, [], null, 3, { metadata: 'strip', xmpSidecars: false }),
    ).toMatchObject({
      presetId: 3,
      metadata: 'strip',
    });
    expect(artNumDownloadRequest('A1', ['all'], null, { metadata: 'strip', xmpSidecars: false })).toEqual({
      artNumList: ['A1'],
      formats: [],
      metadata: 'strip',
    });
  });

  it('asks for .xmp sidecars only with the platform’s metadata written in', () => {
    const items = [{ id: 1, type: 2, fileFormat: 'pdf' } as Item];
    expect(
      downloadRequest(items, { 1: ['pdf'] }, [], null, null, { metadata: 'embed', xmpSidecars: true }),
    ).toMatchObject({ xmpSidecars: true });
    expect(
      downloadRequest(items, { 1: ['pdf'] }, [], null, null, { metadata: 'strip', xmpSidecars: true }),
    ).not.toHaveProperty('xmpSidecars');
    expect(artNumDownloadRequest('A1', ['all'], null, { metadata: 'embed', xmpSidecars: true })).toEqual({
      artNumList: ['A1'],
      formats: [],
      xmpSidecars: true,
    });
  });
});

describe('download of a collection', () => {
  it('sends every format for "all", the formats ticked otherwise, a preset instead of scaling', () => {
    expect(collectionDownloadRequest(5, ['all'], null, null)).toEqual({ id: 5, formats: [] });
    expect(collectionDownloadRequest(5, ['jpg', 'png'], 800, null)).toEqual({
      id: 5,
      formats: ['jpg', 'png'],
      equalScalingPx: 800,
    });
    expect(collectionDownloadRequest(5, ['all'], 800, 3, { metadata: 'strip', xmpSidecars: false })).toEqual({
      id: 5,
      formats: [],
      presetId: 3,
      metadata: 'strip',
    });
  });
});
