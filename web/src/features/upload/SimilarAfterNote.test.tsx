// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import SimilarAfterNote from './SimilarAfterNote';
import type { SimilarAfterMatch } from './useSimilarAfter';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

const original = similarItem({
  id: 5,
  name: 'SHOE',
  path: '/Shoes',
  fileFormat: 'jpg',
  width: 1600,
  height: 1200,
});

/** The note under a finished upload of `fileName` (800 × 600 unless said), and what it sends. */
function renderNote(
  fileName: string,
  size: { width: number | null; height: number | null } = { width: 800, height: 600 },
) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (!url.includes('/file-upload/similar-attach')) throw new Error(`unexpected call ${url}`);
      sent.push(JSON.parse(String(init?.body)));
      return ok({ itemId: 5, path: '/Shoes', name: 'SHOE' });
    }),
  );
  const match: SimilarAfterMatch = { items: [original], itemId: 9, soleRecord: true, ...size };
  const onDismiss = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <SimilarAfterNote uploadId={41} fileName={fileName} match={match} onDismiss={onDismiss} />
      </App>
    </QueryClientProvider>,
  );
  return { sent, onDismiss };
}

describe('the upload panel’s "add as new version" of a larger file (issue 39 item 9)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks first, naming both sizes; keeping the larger current sends keepCurrent', async () => {
    const { sent, onDismiss } = renderNote('IMG_1.jpg');
    await userEvent.click(screen.getByTestId('upload-panel-similar-version'));
    const warning = await screen.findByTestId('smaller-copy-warning');
    expect(warning.textContent).toContain('“IMG_1.jpg”是 800 × 600 像素，当前版本是 1600 × 1200 像素。');
    expect(sent).toEqual([]);
    await userEvent.click(screen.getByTestId('smaller-keep-current'));
    await waitFor(() => expect(onDismiss).toHaveBeenCalled());
    expect(sent).toEqual([{ uploadId: 41, itemId: 5, keepCurrent: true }]);
  });

  it('lets the smaller copy replace it when asked to', async () => {
    const { sent, onDismiss } = renderNote('IMG_2.jpg');
    await userEvent.click(screen.getByTestId('upload-panel-similar-version'));
    await userEvent.click(await screen.findByTestId('smaller-make-current'));
    await waitFor(() => expect(onDismiss).toHaveBeenCalled());
    expect(sent).toEqual([{ uploadId: 41, itemId: 5 }]);
  });

  it('does nothing when cancelled: the note stays', async () => {
    const { sent, onDismiss } = renderNote('IMG_2.jpg');
    await userEvent.click(screen.getByTestId('upload-panel-similar-version'));
    // (Ant Design spaces out a two-character Chinese label.)
    await userEvent.click(await screen.findByRole('button', { name: /^取\s?消$/ }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toEqual([]);
    expect(onDismiss).not.toHaveBeenCalled();
    expect(screen.getByTestId('upload-panel-similar-version')).toHaveProperty('disabled', false);
  });

  it.each([
    ['a larger upload', 'IMG_3.jpg', { width: 2000, height: 1500 }],
    ['an upload of another format', 'IMG_4.tif', { width: 800, height: 600 }],
    ['an upload whose size is not read', 'IMG_5.jpg', { width: null, height: null }],
  ])('adds %s at once', async (_, fileName, size) => {
    const { sent, onDismiss } = renderNote(fileName, size);
    await userEvent.click(screen.getByTestId('upload-panel-similar-version'));
    await waitFor(() => expect(onDismiss).toHaveBeenCalled());
    expect(screen.queryByTestId('smaller-copy-warning')).toBeNull();
    expect(sent).toEqual([{ uploadId: 41, itemId: 5 }]);
  });
});
