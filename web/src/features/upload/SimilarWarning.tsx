import { FileImageOutlined } from '@ant-design/icons';
import { type SimilarItem, splitFileName } from '@dam/contract';
import { Alert, Radio, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../ui/format';
import { CLOSENESS_COLOUR, closenessOf, pixelsOf } from '../similar';
import type { PickedFile } from './engine/pickFiles';
import styles from './SimilarWarning.module.css';
import { SmallerCopyChoice } from './SmallerCopyChoice';
import type { SmallerVersion } from './useSmallerVersions';

/**
 * The upload dialog's near-duplicate warning (issue 17, plan §5.1): each picked file that looks
 * like files already in the archive, with their thumbnails, name, path, size and pixels, and a
 * choice: keep both (the default), add it as a new version of a match the user may change (with
 * several such matches, the user picks which; it goes to that file's folder under its name), or
 * skip the file (it leaves the batch). A new version smaller than the file it joins says so and
 * asks which stays current (issue 39 item 9).
 */
export function SimilarWarning({
  entries,
  onSkip,
  versionOf,
  onVersionOf,
  smaller = new Map(),
  onKeepCurrent = () => {},
}: {
  entries: Array<{ file: PickedFile; items: SimilarItem[] }>;
  onSkip: (file: PickedFile) => void;
  /** The match each file is to become a new version of (absent: keep both). */
  versionOf: ReadonlyMap<File, number>;
  onVersionOf: (file: PickedFile, itemId: number | null) => void;
  /** New versions smaller than the file they join (useSmallerVersions). */
  smaller?: ReadonlyMap<File, SmallerVersion>;
  onKeepCurrent?: (file: File, keep: boolean) => void;
}) {
  const { t } = useTranslation();
  if (entries.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="similar-warning"
      title={t('similar.upload.warning', { count: String(entries.length) })}
      description={
        <div className={styles.similarList}>
          <Typography.Text type="secondary">{t('similar.upload.hint')}</Typography.Text>
          {entries.map(({ file, items }) => {
            const targets = items.filter((item) => item.canAddVersion);
            const chosenId = versionOf.get(file.file);
            const chosen = targets.find((item) => item.id === chosenId);
            return (
              <div
                key={`${file.path}/${file.fileName}`}
                className={styles.similarEntry}
                data-testid="similar-entry"
                data-file={file.fileName}
              >
                <div className={styles.similarEntryHead}>
                  <Typography.Text strong ellipsis={{ tooltip: true }} style={{ flex: 1, minWidth: 0 }}>
                    {file.path ? `${file.path}/` : ''}
                    {file.fileName}
                  </Typography.Text>
                  <Radio.Group
                    size="small"
                    optionType="button"
                    value={chosen ? 'version' : 'keep'}
                    onChange={(event) => {
                      const value = event.target.value;
                      if (value === 'skip') onSkip(file);
                      else if (value === 'version') onVersionOf(file, (targets[0] as SimilarItem).id);
                      else onVersionOf(file, null);
                    }}
                    options={[
                      { value: 'keep', label: t('similar.upload.keepBoth') },
                      ...(targets.length > 0
                        ? [{ value: 'version', label: t('similar.upload.addVersion') }]
                        : []),
                      { value: 'skip', label: t('similar.upload.skip') },
                    ]}
                    data-testid="similar-choice"
                  />
                </div>
                {chosen && (
                  <div className={styles.similarVersion} data-testid="similar-version">
                    {targets.length > 1 && (
                      <>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t('similar.upload.versionOf')}
                        </Typography.Text>
                        <Radio.Group
                          size="small"
                          value={chosen.id}
                          onChange={(event) => onVersionOf(file, event.target.value as number)}
                          options={targets.map((item) => ({ value: item.id, label: item.name }))}
                          data-testid="similar-version-target"
                        />
                      </>
                    )}
                    <Typography.Text code style={{ fontSize: 12 }} data-testid="similar-version-path">
                      {t('similar.upload.goesTo', { path: versionPath(chosen, file.fileName) })}
                    </Typography.Text>
                  </div>
                )}
                {chosen && smaller.has(file.file) && (
                  <SmallerCopyChoice
                    fileName={file.fileName}
                    version={smaller.get(file.file) as SmallerVersion}
                    onKeepCurrent={(keep) => onKeepCurrent(file.file, keep)}
                  />
                )}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('similar.upload.looksLike')}
                </Typography.Text>
                <div className={styles.similarMatches}>
                  {items.map((item) => (
                    <SimilarMatch key={item.id} item={item} />
                  ))}
                </div>
              </div>
            );
          })}
        </div>
      }
    />
  );
}

/**
 * Where a new version goes: the file's folder, the file's name (a base name: a file's formats share
 * it) with the new file's own suffix (SPEC §5).
 */
export function versionPath(item: Pick<SimilarItem, 'path' | 'name'>, fileName: string): string {
  const { format } = splitFileName(fileName);
  const name = `${item.name}${format ? `.${format}` : ''}`;
  return `${item.path.replace(/\/+$/, '')}/${name}`;
}

function SimilarMatch({ item }: { item: SimilarItem }) {
  const { t } = useTranslation();
  const closeness = item.distance === null ? null : closenessOf(item.distance);
  const pixels = pixelsOf(item);
  return (
    <div className={styles.similarMatch} data-testid="similar-match" data-id={item.id}>
      {item.compactUrl ? (
        <img src={item.compactUrl} alt={item.name} className={styles.similarThumb} />
      ) : (
        <span className={styles.similarThumb}>
          <FileImageOutlined />
        </span>
      )}
      <div className={styles.similarMatchText}>
        <Typography.Text ellipsis={{ tooltip: true }}>{item.name}</Typography.Text>
        <Typography.Text type="secondary" ellipsis={{ tooltip: true }} style={{ fontSize: 12 }}>
          {item.path}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {[formatSize(item.fileSize), pixels].filter(Boolean).join(' · ')}
        </Typography.Text>
        {item.byEmbeddedId && (
          <Tooltip title={t('similar.byEmbeddedIdHint')}>
            <Tag
              color="blue"
              style={{ marginInlineEnd: 0, alignSelf: 'flex-start' }}
              data-testid="by-embedded-id"
            >
              {t('similar.byEmbeddedId')}
            </Tag>
          </Tooltip>
        )}
        {closeness && item.distance !== null && (
          <Tooltip title={t('similar.distance', { distance: String(item.distance) })}>
            <Tag color={CLOSENESS_COLOUR[closeness]} style={{ marginInlineEnd: 0, alignSelf: 'flex-start' }}>
              {t(`similar.${closeness}`)}
            </Tag>
          </Tooltip>
        )}
      </div>
    </div>
  );
}
