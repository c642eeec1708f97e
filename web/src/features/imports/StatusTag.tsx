import type { ImportSummary } from '@dam/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<ImportSummary['status'], string> = {
  checking: 'processing',
  checked: 'blue',
  rejected: 'error',
  applying: 'processing',
  applied: 'success',
  discarded: 'default',
  failed: 'error',
};
/** An import's status, coloured by whether it is under way, waiting, done or refused. */
export function StatusTag({ status }: { status: ImportSummary['status'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status]} data-testid="import-status">
      {t(`imports.status.${status}`)}
    </Tag>
  );
}
