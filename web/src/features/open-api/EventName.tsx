import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { eventLabelKey } from './webhooks';

/** A delivery's event as the log names it: translated when known, as the server wrote it otherwise. */
export function EventName({ eventType }: { eventType: string }) {
  const { t } = useTranslation();
  const key = eventLabelKey(eventType);
  return key ? (
    <Tooltip title={eventType}>
      <span>{t(key)}</span>
    </Tooltip>
  ) : (
    <Typography.Text code>{eventType}</Typography.Text>
  );
}
