import { Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { shownPixels } from './engine/picturePixels';
import styles from './SimilarWarning.module.css';
import type { SmallerVersion } from './useSmallerVersions';

/**
 * Issue 39 item 9, in the near-duplicate warning: the file chosen for "add as new version" is
 * larger than the new one. Says so with both sizes, in the viewer's words, and lets the uploader
 * keep the larger current (the default) or let the smaller copy replace it.
 */
export function SmallerCopyChoice({
  fileName,
  version,
  onKeepCurrent,
}: {
  fileName: string;
  version: SmallerVersion;
  onKeepCurrent: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  const current = shownPixels(version.current);
  return (
    <div className={styles.smallerCopy} data-testid="smaller-copy-warning">
      <Typography.Text strong type="warning">
        {t('viewer.smallerTitle')}
      </Typography.Text>
      <Typography.Text style={{ fontSize: 12 }}>
        {t('viewer.smallerBody', { name: fileName, copy: shownPixels(version.copy), current })}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('viewer.smallerHint')}
      </Typography.Text>
      <Radio.Group
        size="small"
        optionType="button"
        value={version.keepCurrent ? 'keep' : 'replace'}
        onChange={(event) => onKeepCurrent(event.target.value === 'keep')}
        options={[
          { value: 'keep', label: t('viewer.smallerKeep', { size: current }) },
          { value: 'replace', label: t('viewer.smallerReplace') },
        ]}
        data-testid="smaller-copy-choice"
      />
    </div>
  );
}
