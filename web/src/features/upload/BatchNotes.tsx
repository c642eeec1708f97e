import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Above the form, for a new version: every file takes the file's name (SPEC §5). */
export function NewVersionHint({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('upload.newVersionHint', { name })}
      data-testid="new-version-hint"
    />
  );
}

/** How many files carry an article number the SKU data does not know. */
export function UnknownArtNumSummary({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="unknown-art-num-summary"
      title={t('upload.unknownArtNumSummary', { count })}
    />
  );
}

/** How far the browser is with hashing the pictures for the near-duplicate check. */
export function SimilarComparing({ done, total }: { done: number; total: number }) {
  const { t } = useTranslation();
  return (
    <Typography.Text
      type="secondary"
      style={{ display: 'block', marginTop: 8 }}
      data-testid="similar-comparing"
    >
      {t('similar.upload.comparing', { done: String(done), total: String(total) })}
    </Typography.Text>
  );
}
