import {
  API_ACCESS_DESCRIPTION_MAX_CHARS,
  API_ACCESS_NAME_MAX_CHARS,
  type ApiAccessSummary,
  type ApiEnterprise,
  type IssuedApiKey,
} from '@dam/contract';
import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../ui/FormModal';
import { type AccessForm, accessFieldProblem, accessFormOf, accessRequest } from './access';
import { useSaveApiAccess } from './openApiApi';

/**
 * Creating (no `record`) or editing an API access record (SPEC §3: name, description, enterprise
 * ID, user mail, status; §5: the first three required). The calls a record may make are its
 * enterprise's. A new record's key comes back with its secret, handed to `onCreated` once.
 */
export function AccessDialog({
  record,
  enterprises,
  defaultMail,
  onClose,
  onCreated,
}: {
  record: ApiAccessSummary | null;
  enterprises: ApiEnterprise[];
  defaultMail: string;
  onClose: () => void;
  onCreated: (issued: IssuedApiKey, name: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccessForm>();
  const save = useSaveApiAccess();

  const rule =
    (field: 'name' | 'description' | 'enterpriseId' | 'userMail', max?: number) =>
    async (_rule: unknown, value: string | undefined) => {
      const problem = accessFieldProblem(field, value);
      if (problem) throw new Error(t(`openApi.form.${problem}`, { max }));
    };

  const submit = async (values: AccessForm) => {
    const issued = await save.mutateAsync(accessRequest(values, record?.id ?? null));
    if (!record && issued.secret) onCreated(issued, values.name.trim());
  };

  return (
    <FormModal<AccessForm>
      form={form}
      title={record ? t('openApi.editAccess') : t('openApi.createAccess')}
      onSave={submit}
      onClose={onClose}
      successText={record ? undefined : null}
      saveTestId="api-access-save"
      width={560}
      // The server's refusals that belong to a field (SPEC §8): no enterprise, an unknown one, a
      // mail that is no user's or a user who is not active.
      fieldOfCode={{ SEP_02: 'enterpriseId', SED_01: 'enterpriseId', SED_12: 'userMail', SED_03: 'userMail' }}
      formProps={{ initialValues: accessFormOf(record, defaultMail), requiredMark: true }}
    >
      <Form.Item
        name="name"
        label={t('openApi.name')}
        required
        rules={[{ validator: rule('name', API_ACCESS_NAME_MAX_CHARS) }]}
      >
        <Input
          maxLength={API_ACCESS_NAME_MAX_CHARS}
          showCount
          placeholder={t('openApi.form.namePlaceholder')}
          data-testid="api-access-name"
        />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('openApi.description')}
        required
        rules={[{ validator: rule('description', API_ACCESS_DESCRIPTION_MAX_CHARS) }]}
      >
        <Input.TextArea
          maxLength={API_ACCESS_DESCRIPTION_MAX_CHARS}
          showCount
          autoSize={{ minRows: 2, maxRows: 5 }}
          placeholder={t('openApi.form.descriptionPlaceholder')}
          data-testid="api-access-description"
        />
      </Form.Item>
      <Form.Item
        name="enterpriseId"
        label={t('openApi.enterprise')}
        required
        extra={t('openApi.form.enterpriseHint')}
        rules={[{ validator: rule('enterpriseId') }]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('openApi.form.enterprisePlaceholder')}
          notFoundContent={t('openApi.form.noEnterprises')}
          options={enterprises.map((enterprise) => ({
            value: enterprise.enterpriseId,
            label: `${enterprise.name} (${enterprise.enterpriseId})`,
          }))}
          data-testid="api-access-enterprise"
        />
      </Form.Item>
      <Form.Item
        name="userMail"
        label={t('openApi.userMail')}
        required
        extra={t('openApi.form.userMailHint')}
        rules={[{ validator: rule('userMail') }]}
      >
        <Input type="email" maxLength={254} autoComplete="off" data-testid="api-access-mail" />
      </Form.Item>
      <Form.Item name="on" label={t('openApi.status')} valuePropName="checked">
        <Switch
          checkedChildren={t('openApi.on')}
          unCheckedChildren={t('openApi.off')}
          data-testid="api-access-status"
        />
      </Form.Item>
    </FormModal>
  );
}
