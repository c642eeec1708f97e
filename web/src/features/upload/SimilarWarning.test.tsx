// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import { similarItem } from '../../test/similarFixtures';
import type { PickedFile } from './engine/pickFiles';
import { SimilarWarning, versionPath } from './SimilarWarning';
import { uploadEntries } from './uploadEntries';

const picked = (fileName: string): PickedFile => ({
  file: new File(['x'], fileName),
  fileName,
  path: '',
  size: 1,
});

/** The dialog's part: the batch, and the warning over the files of it that have matches. */
function Batch({ initial, onSend }: { initial: PickedFile[]; onSend?: (entries: unknown[]) => void }) {
  const [files, setFiles] = useState(initial);
  const [versionOf, setVersionOf] = useState<ReadonlyMap<File, number>>(new Map());
  const matches = new Map([
    [
      'AB9001-red-small.jpg',
      [similarItem({ id: 5, name: 'AB9001-red', compactUrl: '/thumbs/5.jpg', fileSize: 2048, distance: 3 })],
    ],
    ['b.jpg', [similarItem({ id: 6, name: 'other.jpg', width: null, distance: 9, canAddVersion: false })]],
    [
      'd.png',
      [
        similarItem({ id: 7, name: 'first', path: '/Shoes/Red', distance: 1 }),
        similarItem({ id: 8, name: 'locked', distance: 2, canAddVersion: false }),
        similarItem({ id: 9, name: 'second', path: '/', distance: 4 }),
      ],
    ],
  ]);
  const entries = files.flatMap((file) => {
    const items = matches.get(file.fileName);
    return items ? [{ file, items }] : [];
  });
  return (
    <>
      <SimilarWarning
        entries={entries}
        onSkip={(file) => setFiles((all) => all.filter((f) => f !== file))}
        versionOf={versionOf}
        onVersionOf={(file, id) =>
          setVersionOf((all) => {
            const next = new Map(all);
            if (id === null) next.delete(file.file);
            else next.set(file.file, id);
            return next;
          })
        }
      />
      <button
        type="button"
        onClick={() =>
          onSend?.(
            uploadEntries(files, {
              artNumOf: () => undefined,
              tagsOf: () => undefined,
              validity: null,
              versionOf,
            }),
          )
        }
      >
        send
      </button>
      <ul data-testid="batch">
        {files.map((f) => (
          <li key={f.fileName}>{f.fileName}</li>
        ))}
      </ul>
    </>
  );
}

describe('the upload dialog’s near-duplicate warning', () => {
  it('lists each file’s matches with thumbnail, name, path, size and pixels; keep both by default', () => {
    render(<Batch initial={[picked('AB9001-red-small.jpg'), picked('b.jpg'), picked('c.jpg')]} />);
    const warning = screen.getByTestId('similar-warning');
    expect(warning.textContent).toContain('2 个文件与档案中已有的文件相似');
    const [first, second] = within(warning).getAllByTestId('similar-entry');
    const match = within(first as HTMLElement).getByTestId('similar-match');
    expect(within(match).getByRole('img').getAttribute('src')).toBe('/thumbs/5.jpg');
    expect(match.textContent).toContain('AB9001-red');
    expect(match.textContent).toContain('/Shoes');
    expect(match.textContent).toContain('2.0 KB · 1200 × 900');
    expect(match.textContent).toContain('非常接近');
    expect(within(second as HTMLElement).getByTestId('similar-match').textContent).not.toContain('×');
    expect(within(first as HTMLElement).getByRole('radio', { name: '都保留' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('skip takes the file out of the batch, and the warning with it', async () => {
    render(<Batch initial={[picked('AB9001-red-small.jpg'), picked('c.jpg')]} />);
    await userEvent.click(screen.getByText('跳过'));
    expect(screen.getByTestId('batch').textContent).toBe('c.jpg');
    expect(screen.queryByTestId('similar-warning')).toBeNull();
  });

  it('offers "add as new version" only with a match the user may change', () => {
    render(<Batch initial={[picked('AB9001-red-small.jpg'), picked('b.jpg')]} />);
    const [first, second] = screen.getAllByTestId('similar-entry');
    expect(within(first as HTMLElement).queryByRole('radio', { name: '添加为新版本' })).not.toBeNull();
    expect(within(second as HTMLElement).queryByRole('radio', { name: '添加为新版本' })).toBeNull();
  });

  it('"add as new version" sends that entry with the chosen file, the others as they were', async () => {
    const sent: unknown[][] = [];
    render(
      <Batch
        initial={[picked('AB9001-red-small.jpg'), picked('c.jpg'), picked('d.png')]}
        onSend={(entries) => sent.push(entries)}
      />,
    );
    const [first, third] = screen.getAllByTestId('similar-entry') as HTMLElement[];
    // One file it may join: chosen at once, and where it goes is shown.
    await userEvent.click(within(first as HTMLElement).getByText('添加为新版本'));
    expect(within(first as HTMLElement).queryByTestId('similar-version-target')).toBeNull();
    expect(within(first as HTMLElement).getByTestId('similar-version-path').textContent).toBe(
      '上传到 → /Shoes/AB9001-red.jpg',
    );
    // Several: the first is proposed, the user picks another; one that may not be changed is not offered.
    await userEvent.click(within(third as HTMLElement).getByText('添加为新版本'));
    const targets = within(third as HTMLElement).getByTestId('similar-version-target');
    expect(
      within(targets)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['first', 'second']);
    expect(within(third as HTMLElement).getByTestId('similar-version-path').textContent).toBe(
      '上传到 → /Shoes/Red/first.png',
    );
    await userEvent.click(within(targets).getByText('second'));
    expect(within(third as HTMLElement).getByTestId('similar-version-path').textContent).toBe(
      '上传到 → /second.png',
    );
    await userEvent.click(screen.getByText('send'));
    expect(sent.at(-1)).toEqual([
      expect.objectContaining({ fileName: 'AB9001-red-small.jpg', versionOfItemId: 5 }),
      expect.not.objectContaining({ versionOfItemId: expect.anything() }),
      expect.objectContaining({ fileName: 'd.png', versionOfItemId: 9 }),
    ]);
    // Back to keep both: sent as a new file again.
    await userEvent.click(within(first as HTMLElement).getByText('都保留'));
    await userEvent.click(screen.getByText('send'));
    expect(sent.at(-1)?.[0]).not.toHaveProperty('versionOfItemId');
    expect(sent.at(-1)?.[2]).toHaveProperty('versionOfItemId', 9);
  });

  it('names a new version by the file it joins and its own suffix', () => {
    expect(versionPath({ path: '/Shoes', name: 'AB9001.red' }, 'copy.PNG')).toBe('/Shoes/AB9001.red.png');
    expect(versionPath({ path: '/', name: 'a' }, 'README')).toBe('/a');
  });
});
