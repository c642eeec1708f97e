// @vitest-environment jsdom
import type { FileMetadataResult } from '@dam/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { emptyMetadata } from '../../test/metadataFixtures';
import { MetadataSection } from './MetadataSection';

const answer = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

function serve(result: FileMetadataResult) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return answer(result);
    }),
  );
  return asked;
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <MetadataSection fileId={42} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('metadata in the info panel', () => {
  it("shows the newest record's fields, leaves out the empty ones, and switches to another format", async () => {
    const asked = serve({
      records: [
        {
          recordId: 7,
          format: 'jpg',
          status: 'ready',
          metadata: {
            ...emptyMetadata,
            camera: 'Canon EOS R5',
            capturedAt: '2026-05-04T10:20:30',
            keywords: ['跑鞋', 'white'],
            rating: 4,
          },
        },
        { recordId: 6, format: 'psd', status: 'failed', metadata: null },
      ],
    });
    renderSection();
    expect((await screen.findByTestId('metadata-camera')).textContent).toBe('Canon EOS R5');
    expect(asked[0]).toContain('folderDataId=42');
    expect(screen.getByTestId('metadata-capturedAt').textContent).toBe('2026-05-04 10:20:30 (时区未知)');
    expect(screen.getAllByTestId('metadata-keyword').map((tag) => tag.textContent)).toEqual([
      '跑鞋',
      'white',
    ]);
    expect(screen.getByTestId('metadata-rating').textContent).toBe('4 星');
    // The camera and each keyword search for themselves (issue 42 item 2).
    const camera = new URL(
      screen.getByTestId('metadata-search-camera').getAttribute('href') ?? '',
      'http://x',
    );
    expect(camera.searchParams.get('camera')).toBe('Canon EOS R5');
    expect(camera.searchParams.get('global')).toBe('true');
    const keywordLinks = screen
      .getAllByTestId('metadata-search-keyword')
      .map((link) => link.getAttribute('href'));
    expect(new URL(keywordLinks[0] ?? '', 'http://x').searchParams.get('keyword')).toBe('跑鞋');
    expect(screen.queryByTestId('metadata-lens')).toBeNull();
    expect(screen.queryByTestId('metadata-gps')).toBeNull();

    await userEvent.click(screen.getByText('PSD'));
    expect(screen.getByTestId('metadata-failed').textContent).toBe('无法读取此格式的元数据');
    expect(screen.queryByTestId('metadata-camera')).toBeNull();
  });

  it('opens on the newest record with something to show, not on a newer empty one', async () => {
    serve({
      records: [
        { recordId: 9, format: 'png', status: 'ready', metadata: emptyMetadata },
        { recordId: 8, format: 'tif', status: 'none', metadata: null },
        { recordId: 7, format: 'jpg', status: 'ready', metadata: { ...emptyMetadata, creator: '张三' } },
      ],
    });
    renderSection();
    expect((await screen.findByTestId('metadata-creator')).textContent).toBe('张三');
    await userEvent.click(screen.getByText('PNG'));
    expect(screen.getByTestId('metadata-empty').textContent).toBe('没有内嵌的元数据');
    await userEvent.click(screen.getByText('TIF'));
    expect(screen.getByTestId('metadata-none').textContent).toBe('此格式不带元数据');
  });

  it('writes the rest of the fields: orientation, rejection, labels, colour, layers, video, many keywords', async () => {
    const keywords = Array.from({ length: 25 }, (_, i) => `k${i}`);
    serve({
      records: [
        {
          recordId: 3,
          format: 'mp4',
          status: 'ready',
          metadata: {
            ...emptyMetadata,
            orientation: 6,
            rating: -1,
            label: 'Approved',
            iccProfile: 'Display P3',
            colourSpace: 'RGB',
            layerCount: 3,
            duration: 3723,
            videoCodec: 'avc1',
            frameRate: 29.97002997,
            gps: { latitude: -33.8688, longitude: 151.2093 },
            keywords,
          },
        },
      ],
    });
    renderSection();
    expect((await screen.findByTestId('metadata-orientation')).textContent).toBe('顺时针旋转 90°');
    expect(screen.getByTestId('metadata-rating').textContent).toBe('已拒绝');
    expect(screen.getByTestId('metadata-label').textContent).toBe('Approved');
    expect(screen.getByTestId('metadata-colour').textContent).toBe('Display P3 · RGB');
    expect(screen.getByTestId('metadata-layers').textContent).toBe('3');
    expect(screen.getByTestId('metadata-duration').textContent).toBe('1:02:03');
    expect(screen.getByTestId('metadata-videoCodec').textContent).toBe('avc1');
    expect(screen.getByTestId('metadata-frameRate').textContent).toBe('29.97 帧/秒');
    expect(screen.getByTestId('metadata-gps').textContent).toContain('-33.868800, 151.209300');
    expect(screen.getAllByTestId('metadata-keyword')).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: '显示全部 25 个' }));
    expect(screen.getAllByTestId('metadata-keyword')).toHaveLength(25);
  });

  it.each([
    ['pending', emptyMetadata, 'metadata-pending', '正在读取文件内嵌的元数据…'],
    ['none', null, 'metadata-none', '此格式不带元数据'],
    ['ready', { ...emptyMetadata, orientation: 1, rating: 0 }, 'metadata-empty', '没有内嵌的元数据'],
  ] as const)('says so when a record is %s with nothing to show', async (status, metadata, testId, text) => {
    serve({ records: [{ recordId: 1, format: 'png', status, metadata }] });
    renderSection();
    expect((await screen.findByTestId(testId)).textContent).toBe(text);
    expect(screen.queryByTestId('metadata-formats')).toBeNull();
  });
});
