import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  ALL_FUNCTION_CODES,
  FILE_PERMISSIONS,
  type FilePermission,
  PERMISSION_SCOPES,
  type PermissionScope,
  ROLE_NAME_MAX_CHARS,
  type RoleInput,
} from '@dam/contract';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  Radio,
  Result,
  Row,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { showApiError } from '../../api/showApiError';
import { useCreateRole, useEditRole, useRoles } from './accountsApi';

const NEW_ROLE: RoleInput = {
  name: '',
  filePermissions: { view: 'dept', upload: 'dept', download: 'dept', share: 'none' },
  functionCodes: [],
};

/**
 * /manage/role/modify (code 3): a role's name, how far each file permission reaches (none, the
 * holder's department and those below it, or everything) and which function codes it grants.
 * `?id=` edits that role; without it a new one is made.
 */
export function RoleModifyPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || null;
  const roles = useRoles();
  const create = useCreateRole();
  const edit = useEditRole();
  const [form] = Form.useForm<RoleInput>();

  if (id !== null && roles.isPending) return <Spin />;
  const role = id === null ? null : (roles.data?.find((r) => r.id === id) ?? null);
  if (id !== null && !role) {
    return (
      <Result
        status="404"
        subTitle={t('roles.notFound')}
        extra={<Button onClick={() => navigate('/manage/role')}>{t('roles.back')}</Button>}
      />
    );
  }
  const locked = role?.isSystem ?? false;

  const submit = async (values: RoleInput) => {
    try {
      if (role) await edit.mutateAsync({ ...values, roleId: role.id });
      else await create.mutateAsync(values);
      void message.success(t('common.saveOk'));
      void navigate('/manage/role');
    } catch (error) {
      showApiError(error, { form, fieldOfCode: { SEAC_06: 'name' } });
    }
  };

  return (
    <Card
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate('/manage/role')}
            aria-label={t('roles.back')}
          />
          {role ? t('roles.editTitle', { name: role.name }) : t('roles.create')}
        </Space>
      }
      data-testid="role-modify"
    >
      {locked && <Alert type="info" showIcon title={t('roles.systemHint')} style={{ marginBottom: 16 }} />}
      <Form<RoleInput>
        form={form}
        layout="vertical"
        initialValues={
          role
            ? { name: role.name, filePermissions: role.filePermissions, functionCodes: role.functionCodes }
            : NEW_ROLE
        }
        onFinish={(values) => void submit(values)}
        style={{ maxWidth: 760 }}
      >
        <Form.Item
          name="name"
          label={t('roles.name')}
          rules={[
            { required: true, whitespace: true, message: t('roles.nameRequired') },
            { max: ROLE_NAME_MAX_CHARS, message: t('accounts.tooLong', { max: ROLE_NAME_MAX_CHARS }) },
          ]}
        >
          <Input
            maxLength={ROLE_NAME_MAX_CHARS}
            showCount
            style={{ maxWidth: 360 }}
            data-testid="role-name"
          />
        </Form.Item>
        <Typography.Title level={5}>{t('roles.filePermissions')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('roles.scopeHint')}</Typography.Paragraph>
        {FILE_PERMISSIONS.map((permission: FilePermission) => (
          <Row key={permission} align="middle" gutter={16} style={{ marginBottom: 8 }}>
            <Col flex="120px">
              <Typography.Text>{t(`roles.permission.${permission}`)}</Typography.Text>
            </Col>
            <Col flex="auto">
              <Form.Item name={['filePermissions', permission]} noStyle>
                <Radio.Group
                  optionType="button"
                  disabled={locked}
                  options={PERMISSION_SCOPES.map((scope: PermissionScope) => ({
                    value: scope,
                    label: t(`roles.scope.${scope}`),
                  }))}
                  data-testid={`role-scope-${permission}`}
                />
              </Form.Item>
            </Col>
          </Row>
        ))}
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('roles.functionCodes')}
        </Typography.Title>
        <Form.Item name="functionCodes">
          <Checkbox.Group disabled={locked} data-testid="role-codes">
            <Row gutter={[16, 8]}>
              {ALL_FUNCTION_CODES.map((code) => (
                <Col span={12} key={code}>
                  <Checkbox value={code}>
                    {t(`permission.code${code}`)}
                    <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
                      {t(`roles.codeHint.code${code}`)}
                    </Typography.Text>
                  </Checkbox>
                </Col>
              ))}
            </Row>
          </Checkbox.Group>
        </Form.Item>
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            loading={create.isPending || edit.isPending}
            data-testid="role-save"
          >
            {t('common.save')}
          </Button>
          <Button onClick={() => navigate('/manage/role')}>{t('common.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
