import { API_SECRET_GRACE_HOURS_MAX, type ApiAccessSummary, type IssuedApiKey } from '@dam/contract';
import { Alert, Form, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { graceHoursProblem } from './access';
import { useRotateApiSecret } from './openApiApi';

interface RotateForm {
  graceHours: number | null;
}

/**
 * A new secret for a record (rotateApiSecret): the key id stays, the new secret is shown once, and
 * the old one keeps signing for the grace period (0: it stops at once, as after a leak).
 */
export function RotateDialog({
  record,
  onClose,
  onRotated,
}: {
  record: ApiAccessSummary;
  onClose: () => void;
  onRotated: (issued: IssuedApiKey, name: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RotateForm>();
  const rotate = useRotateApiSecret();

  const submit = async ({ graceHours }: RotateForm) => {
    const issued = await rotate.mutateAsync({ id: record.id, graceHours: graceHours ?? 0 });
    if (issued.secret) onRotated(issued, record.name);
  };

  return (
    <FormModal<RotateForm>
      form={form}
      title={t('openApi.rotate.title', { name: record.name })}
      onSave={submit}
      onClose={onClose}
      successText={null}
      okText={t('openApi.rotate.ok')}
      saveTestId="api-rotate-save"
      width={520}
      formProps={{ initialValues: { graceHours: 0 } }}
    >
      <Typography.Paragraph type="secondary">{t('openApi.rotate.intro')}</Typography.Paragraph>
      <Form.Item
        name="graceHours"
        label={t('openApi.rotate.graceHours')}
        extra={t('openApi.rotate.graceHint', { max: API_SECRET_GRACE_HOURS_MAX })}
        rules={[
          {
            validator: async (_rule, hours: number | null) => {
              const problem = graceHoursProblem(hours);
              if (problem === 'required') throw new Error(t('openApi.form.required'));
              if (problem === 'range')
                throw new Error(t('openApi.rotate.graceRange', { max: API_SECRET_GRACE_HOURS_MAX }));
            },
          },
        ]}
      >
        <InputNumber
          min={0}
          max={API_SECRET_GRACE_HOURS_MAX}
          precision={0}
          suffix={t('openApi.rotate.hours')}
          style={{ width: 160 }}
          data-testid="api-rotate-grace"
        />
      </Form.Item>
      <Alert type="warning" showIcon title={t('openApi.rotate.warning')} />
    </FormModal>
  );
}
