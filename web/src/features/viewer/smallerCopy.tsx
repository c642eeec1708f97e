import type { FileDetail } from '@dam/contract';
import { App, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PickedFile } from '../../upload/pickFiles';

interface Pixels {
  width: number;
  height: number;
}

/** Formats whose size the browser reads from the file itself. */
const READABLE = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp']);

/** A picture's pixel size as the browser reads it (its header; nothing is drawn), or null. */
function pixelsOf(file: File): Promise<Pixels | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    const done = (pixels: Pixels | null) => {
      URL.revokeObjectURL(url);
      resolve(pixels);
    };
    image.onload = () => done({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => done(null);
    image.src = url;
  });
}

const formatOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();
const shown = (p: Pixels) => `${p.width} × ${p.height}`;

/**
 * Issue 39 item 9: before a new version of `file` is uploaded, a picture of the file's main format
 * smaller than its current version is named, with both sizes, and the uploader chooses: keep the
 * larger current (the copy joins as a version not shown), let the copy become current, or cancel.
 * Answers the picked files to keep behind, or null when cancelled.
 */
export function useSmallerCopyCheck(file: FileDetail) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return async (files: PickedFile[]): Promise<ReadonlySet<File> | null> => {
    const [width, height] = (file.filePx ?? '').split('*').map(Number);
    const main = file.fileFormat?.split(',')[0];
    if (!width || !height || !main) return new Set();
    const current = { width, height };
    const smaller: Array<{ picked: PickedFile; pixels: Pixels }> = [];
    for (const picked of files) {
      const format = formatOf(picked.fileName);
      if (format !== main || !READABLE.has(format)) continue;
      const pixels = await pixelsOf(picked.file);
      if (pixels && pixels.width * pixels.height < width * height) smaller.push({ picked, pixels });
    }
    if (smaller.length === 0) return new Set();
    return new Promise((resolve) => {
      const answer = (choice: ReadonlySet<File> | null) => {
        resolve(choice);
        dialog.destroy();
      };
      const dialog = modal.confirm({
        title: t('viewer.smallerTitle'),
        width: 600,
        content: (
          <Space orientation="vertical" size={4} data-testid="smaller-copy-warning">
            {smaller.map(({ picked, pixels }) => (
              <Typography.Text key={picked.fileName}>
                {t('viewer.smallerBody', {
                  name: picked.fileName,
                  copy: shown(pixels),
                  current: shown(current),
                })}
              </Typography.Text>
            ))}
            <Typography.Text type="secondary">{t('viewer.smallerHint')}</Typography.Text>
          </Space>
        ),
        onCancel: () => resolve(null),
        footer: (
          <Space wrap style={{ justifyContent: 'flex-end', width: '100%', marginTop: 12 }}>
            <Button onClick={() => answer(null)}>{t('common.cancel')}</Button>
            <Button onClick={() => answer(new Set())} data-testid="smaller-make-current">
              {t('viewer.smallerReplace')}
            </Button>
            <Button
              type="primary"
              onClick={() => answer(new Set(smaller.map((s) => s.picked.file)))}
              data-testid="smaller-keep-current"
            >
              {t('viewer.smallerKeep', { size: shown(current) })}
            </Button>
          </Space>
        ),
      });
    });
  };
}
