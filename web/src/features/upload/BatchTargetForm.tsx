import { Button, DatePicker, Form, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The batch's target folder (changeable unless it is a new version) and validity. */
export function BatchTargetForm({
  path,
  onChange,
  validity,
  onValidity,
}: {
  path: string;
  /** Opens the folder picker; absent for a new version, whose folder is fixed. */
  onChange?: () => void;
  validity: [Dayjs, Dayjs] | null;
  onValidity: (validity: [Dayjs, Dayjs] | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Form layout="vertical">
      <Form.Item label={t('upload.target')}>
        <Space>
          <Typography.Text code data-testid="upload-target">
            {path}
          </Typography.Text>
          {onChange && (
            <Button size="small" onClick={onChange}>
              {t('upload.change')}
            </Button>
          )}
        </Space>
      </Form.Item>
      <Form.Item label={t('upload.validity')}>
        <DatePicker.RangePicker value={validity} onChange={(v) => onValidity(v as [Dayjs, Dayjs] | null)} />
      </Form.Item>
    </Form>
  );
}
