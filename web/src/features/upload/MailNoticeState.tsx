import type { MailNoticeSummary } from '@dam/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';

const COLOURS = { scheduled: 'processing', sending: 'processing', sent: 'success', failed: 'error' } as const;

/** A batch's mail notice on the upload record: its state, and in the tooltip when or why. */
export function MailNoticeState({ notice }: { notice: MailNoticeSummary }) {
  const { t } = useTranslation();
  const detail =
    notice.state === 'scheduled'
      ? notice.dueAt
        ? t('mailNotice.dueAt', { time: formatDate(notice.dueAt) })
        : t('mailNotice.waitingBatch')
      : notice.state === 'failed'
        ? notice.lastError === 'nothingToSend'
          ? t('mailNotice.nothingToSend')
          : t('mailNotice.failedCount', { failed: notice.failed, error: notice.lastError ?? '' })
        : notice.state === 'sent'
          ? t('mailNotice.sentTo', { count: notice.recipients })
          : t('mailNotice.sendingTo', { count: notice.recipients });
  return (
    <Tooltip title={detail}>
      <Tag color={COLOURS[notice.state]} data-testid="mail-notice-state" data-state={notice.state}>
        {t(`mailNotice.state.${notice.state}`)}
      </Tag>
    </Tooltip>
  );
}
