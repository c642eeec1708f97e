import { type SimilarItem, splitFileName } from '@dam/contract';
import { App, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type Pixels, pixelsFrom, replacesLarger, shownPixels } from './engine/picturePixels';

/** The uploader's answer: keep the larger version current, let the copy replace it, or stop. */
export type SmallerCopyAnswer = 'keep' | 'replace' | null;

/**
 * Issue 39 item 9: asks, before a smaller copy becomes a file's current version, whether it should.
 * Names each copy with both sizes and what either choice means for the grid, the viewer and
 * downloads. Used by the viewer's "upload a new version" and the upload panel's "add as new
 * version"; the upload dialog asks the same inline (SmallerCopyChoice).
 */
export function useSmallerCopyQuestion() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (copies: Array<{ name: string; pixels: Pixels }>, current: Pixels): Promise<SmallerCopyAnswer> =>
    new Promise((resolve) => {
      const answer = (choice: SmallerCopyAnswer) => {
        resolve(choice);
        dialog.destroy();
      };
      const dialog = modal.confirm({
        title: t('viewer.smallerTitle'),
        width: 600,
        content: (
          <Space orientation="vertical" size={4} data-testid="smaller-copy-warning">
            {copies.map((copy) => (
              <Typography.Text key={copy.name}>
                {t('viewer.smallerBody', {
                  name: copy.name,
                  copy: shownPixels(copy.pixels),
                  current: shownPixels(current),
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
            <Button onClick={() => answer('replace')} data-testid="smaller-make-current">
              {t('viewer.smallerReplace')}
            </Button>
            <Button type="primary" onClick={() => answer('keep')} data-testid="smaller-keep-current">
              {t('viewer.smallerKeep', { size: shownPixels(current) })}
            </Button>
          </Space>
        ),
      });
    });
}

/**
 * The upload panel's "add as new version" (issue 39 item 9): asks, when the finished upload
 * `copy` is smaller than the file it is to join in one of that file's formats, whether the larger
 * stays current. Answers keepCurrent, or null when the uploader cancels.
 */
export function useKeepCurrentQuestion() {
  const ask = useSmallerCopyQuestion();
  return async (
    copy: { name: string; pixels: Pixels | null },
    item: Pick<SimilarItem, 'fileFormat' | 'width' | 'height'>,
  ): Promise<boolean | null> => {
    const current = pixelsFrom(item.width, item.height);
    const format = splitFileName(copy.name).format;
    if (!copy.pixels || !current) return false;
    if (!replacesLarger({ format, pixels: copy.pixels }, { formats: item.fileFormat, pixels: current }))
      return false;
    const answer = await ask([{ name: copy.name, pixels: copy.pixels }], current);
    return answer === null ? null : answer === 'keep';
  };
}
