// @vitest-environment jsdom
import type { SimilarItem } from '@dam/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import type { PickedFile } from './engine/pickFiles';
import { type Pixels, replacesLarger } from './engine/picturePixels';
import { SimilarWarning } from './SimilarWarning';
import { uploadEntries } from './uploadEntries';
import { useSmallerVersions } from './useSmallerVersions';

const picked = (fileName: string): PickedFile => ({
  file: new File(['x'], fileName),
  fileName,
  path: '',
  size: 1,
});

/** The dialog's part: the warning, the sizes the browser reads (given), and what "finish" sends. */
function Dialog({
  file,
  item,
  read,
  onSend,
}: {
  file: PickedFile;
  item: SimilarItem;
  read: (file: File) => Promise<Pixels | null>;
  onSend: (entries: unknown[]) => void;
}) {
  const [versionOf, setVersionOf] = useState<ReadonlyMap<File, number>>(new Map());
  const entries = [{ file, items: [item] }];
  const smaller = useSmallerVersions(entries, versionOf, read);
  return (
    <>
      <SimilarWarning
        entries={entries}
        onSkip={() => {}}
        versionOf={versionOf}
        onVersionOf={(f, id) => setVersionOf(id === null ? new Map() : new Map([[f.file, id]]))}
        smaller={smaller.smaller}
        onKeepCurrent={smaller.setKeepCurrent}
      />
      <button
        type="button"
        onClick={async () => {
          const keepCurrent = await smaller.keptBehind();
          onSend(
            uploadEntries([file], {
              artNumOf: () => undefined,
              tagsOf: () => undefined,
              validity: null,
              versionOf,
              keepCurrent,
            }),
          );
        }}
      >
        finish
      </button>
    </>
  );
}

const original = similarItem({ id: 5, name: 'SHOE', fileFormat: 'jpg', width: 1600, height: 1200 });

function renderDialog(fileName: string, copy: Pixels | null, item = original) {
  const sent: unknown[][] = [];
  const read = async () => copy;
  render(<Dialog file={picked(fileName)} item={item} read={read} onSend={(e) => sent.push(e)} />);
  return sent;
}

describe('a near-duplicate added as a new version of a larger file (issue 39 item 9)', () => {
  it('says so with both sizes and keeps the larger current unless told otherwise', async () => {
    const sent = renderDialog('IMG_1.jpg', { width: 800, height: 600 });
    expect(screen.queryByTestId('smaller-copy-warning')).toBeNull();
    await userEvent.click(screen.getByText('添加为新版本'));
    const warning = await screen.findByTestId('smaller-copy-warning');
    expect(warning.textContent).toContain('新副本比当前版本小');
    expect(warning.textContent).toContain('“IMG_1.jpg”是 800 × 600 像素，当前版本是 1600 × 1200 像素。');
    expect(within(warning).getByRole('radio', { name: '保留 1600 × 1200 为当前版本' })).toHaveProperty(
      'checked',
      true,
    );
    await userEvent.click(screen.getByText('finish'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual([expect.objectContaining({ versionOfItemId: 5, keepCurrent: true })]);

    // The smaller copy may replace it after all: sent without keepCurrent.
    await userEvent.click(within(warning).getByText('用较小的副本替换'));
    await userEvent.click(screen.getByText('finish'));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.[0]).toMatchObject({ versionOfItemId: 5 });
    expect(sent[1]?.[0]).not.toHaveProperty('keepCurrent');

    // Back to keep both: neither a version nor kept behind, and the warning goes.
    await userEvent.click(screen.getByText('都保留'));
    expect(screen.queryByTestId('smaller-copy-warning')).toBeNull();
    await userEvent.click(screen.getByText('finish'));
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]?.[0]).not.toHaveProperty('versionOfItemId');
    expect(sent[2]?.[0]).not.toHaveProperty('keepCurrent');
  });

  it('waits for a size still being read, so a quick "finish" keeps the larger current', async () => {
    let answer: (pixels: Pixels) => void = () => {};
    const slow = new Promise<Pixels>((resolve) => {
      answer = resolve;
    });
    const sent: unknown[][] = [];
    render(
      <Dialog file={picked('IMG_2.jpg')} item={original} read={() => slow} onSend={(e) => sent.push(e)} />,
    );
    await userEvent.click(screen.getByText('添加为新版本'));
    await userEvent.click(screen.getByText('finish'));
    expect(sent).toHaveLength(0);
    answer({ width: 640, height: 480 });
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.[0]).toMatchObject({ versionOfItemId: 5, keepCurrent: true });
  });

  it.each([
    ['a larger copy', 'IMG_3.jpg', { width: 2000, height: 1500 }, original],
    [
      'a copy of another format (it is shown beside, not instead)',
      'IMG_4.png',
      { width: 800, height: 600 },
      original,
    ],
    ['a copy the browser cannot read', 'IMG_5.jpg', null, original],
    [
      'a file whose size is not known',
      'IMG_6.jpg',
      { width: 800, height: 600 },
      similarItem({ id: 5, width: null, height: null }),
    ],
  ])('says nothing of %s', async (_, fileName, copy, item) => {
    const sent = renderDialog(fileName, copy, item);
    await userEvent.click(screen.getByText('添加为新版本'));
    await userEvent.click(screen.getByText('finish'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(screen.queryByTestId('smaller-copy-warning')).toBeNull();
    expect(sent[0]?.[0]).not.toHaveProperty('keepCurrent');
  });

  it('counts pixels, whatever the orientation, and only in one of the file’s formats', () => {
    const current = { formats: 'jpg,png', pixels: { width: 1600, height: 1200 } };
    expect(replacesLarger({ format: 'png', pixels: { width: 1200, height: 1599 } }, current)).toBe(true);
    expect(replacesLarger({ format: 'jpg', pixels: { width: 1200, height: 1600 } }, current)).toBe(false);
    expect(replacesLarger({ format: 'webp', pixels: { width: 10, height: 10 } }, current)).toBe(false);
    expect(replacesLarger({ format: 'jpg', pixels: null }, current)).toBe(false);
  });
});
