import {
  type ApiEnterprise,
  ENTERPRISE_NAME_MAX_CHARS,
  OPEN_API_RATE_DEFAULT,
  OPEN_API_RATE_MAX,
  type OpenCallInfo,
} from '@dam/contract';
import { Button, Checkbox, Form, Input, InputNumber, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { callChoices, type EnterpriseForm, enterpriseFieldProblem, orderedCalls } from './access';
import { useSaveApiEnterprise } from './openApiApi';

/**
 * Creating (no `enterprise`) or editing an enterprise: its ID (fixed once made), name, calls per
 * minute for each of its records, and the open calls its records may make (getAllApi's list).
 */
export function EnterpriseDialog({
  enterprise,
  calls,
  onClose,
}: {
  enterprise: ApiEnterprise | null;
  calls: OpenCallInfo[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EnterpriseForm>();
  const save = useSaveApiEnterprise();
  const choices = callChoices(calls);
  const allCodes = choices.map((choice) => choice.code);

  const rule =
    (field: 'enterpriseId' | 'name' | 'ratePerMinute') =>
    async (_rule: unknown, value: string | number | null) => {
      const problem = enterpriseFieldProblem(field, value);
      if (problem)
        throw new Error(
          t(`openApi.enterpriseForm.${problem}`, {
            max: ENTERPRISE_NAME_MAX_CHARS,
            rateMax: OPEN_API_RATE_MAX,
          }),
        );
    };

  const submit = (values: EnterpriseForm) =>
    save.mutateAsync({
      enterpriseId: (enterprise?.enterpriseId ?? values.enterpriseId).trim(),
      name: values.name.trim(),
      ...(values.ratePerMinute === null || values.ratePerMinute === undefined
        ? {}
        : { ratePerMinute: values.ratePerMinute }),
      apiCodes: orderedCalls(values.apiCodes ?? []),
    });

  const initial: EnterpriseForm = enterprise
    ? {
        enterpriseId: enterprise.enterpriseId,
        name: enterprise.name,
        ratePerMinute: enterprise.ratePerMinute,
        apiCodes: orderedCalls(enterprise.apiCodes),
      }
    : { enterpriseId: '', name: '', ratePerMinute: OPEN_API_RATE_DEFAULT, apiCodes: [] };

  return (
    <FormModal<EnterpriseForm>
      form={form}
      title={enterprise ? t('openApi.editEnterprise') : t('openApi.createEnterprise')}
      onSave={submit}
      onClose={onClose}
      saveTestId="api-enterprise-save"
      width={640}
      // SPEC §8: no enterprise ID (SEP_02), an unknown one (SED_01).
      fieldOfCode={{ SEP_02: 'enterpriseId', SED_01: 'enterpriseId' }}
      formProps={{ initialValues: initial, requiredMark: true }}
    >
      <Space align="start" size="middle" style={{ display: 'flex' }} wrap>
        <Form.Item
          name="enterpriseId"
          label={t('openApi.enterpriseId')}
          required
          extra={enterprise ? undefined : t('openApi.enterpriseForm.idHint')}
          rules={enterprise ? [] : [{ validator: rule('enterpriseId') }]}
          style={{ width: 260 }}
        >
          <Input maxLength={32} disabled={enterprise !== null} data-testid="api-enterprise-id" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('openApi.enterpriseName')}
          required
          rules={[{ validator: rule('name') }]}
          style={{ width: 300 }}
        >
          <Input maxLength={ENTERPRISE_NAME_MAX_CHARS} showCount data-testid="api-enterprise-name" />
        </Form.Item>
      </Space>
      <Form.Item
        name="ratePerMinute"
        label={t('openApi.ratePerMinute')}
        extra={t('openApi.enterpriseForm.rateHint', { value: OPEN_API_RATE_DEFAULT })}
        rules={[{ validator: rule('ratePerMinute') }]}
      >
        <InputNumber
          min={1}
          max={OPEN_API_RATE_MAX}
          precision={0}
          suffix={t('openApi.perMinute')}
          style={{ width: 200 }}
          data-testid="api-enterprise-rate"
        />
      </Form.Item>
      <Form.Item
        label={
          <Space>
            <span>{t('openApi.allowedCalls')}</span>
            <Button
              size="small"
              type="link"
              onClick={() => form.setFieldValue('apiCodes', allCodes)}
              data-testid="api-enterprise-all-calls"
            >
              {t('openApi.enterpriseForm.allCalls')}
            </Button>
            <Button size="small" type="link" onClick={() => form.setFieldValue('apiCodes', [])}>
              {t('openApi.enterpriseForm.noCalls')}
            </Button>
          </Space>
        }
        extra={t('openApi.enterpriseForm.callsHint')}
      >
        <Form.Item name="apiCodes" noStyle>
          <Checkbox.Group style={{ display: 'grid', gap: 6 }} data-testid="api-enterprise-calls">
            {choices.map((choice) => (
              <Checkbox key={choice.code} value={choice.code} data-code={choice.code}>
                {t(`openApi.call.${choice.code}`)}
                {choice.endpoints.map((endpoint) => (
                  <Typography.Text
                    key={`${endpoint.method} ${endpoint.path}`}
                    type="secondary"
                    style={{ fontSize: 12, marginInlineStart: 8 }}
                  >
                    <code>{endpoint.method}</code> {endpoint.path}
                  </Typography.Text>
                ))}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      </Form.Item>
    </FormModal>
  );
}
