import {
  type Department,
  type ManagedUser,
  PERSON_NAME_MAX_CHARS,
  RESERVED_USERNAMES,
  toDepartmentTree,
  USERNAME_MAX_CHARS,
} from '@dam/contract';
import { App, Col, Form, Input, Modal, Row, Select, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useCreateUser, useEditUser, useRoles } from './accountsApi';
import { departmentOptions } from './DepartmentPanel';

interface UserForm {
  name: string;
  username: string;
  email: string;
  mobile: string;
  deptId: number;
  roleIdList: number[];
}

/** Which form field a server refusal belongs to, so it shows under that field. */
const FIELD_OF_CODE: Record<string, keyof UserForm> = {
  SED_07: 'email',
  SED_08: 'mobile',
  SEAC_07: 'username',
  SED_04: 'deptId',
  SED_06: 'deptId',
  SED_05: 'roleIdList',
};

/** Creates a person (the server issues a first password) or edits one. */
export function UserDialog({
  user,
  deptId,
  departments,
  onClose,
  onCreated,
}: {
  user: ManagedUser | null;
  /** The department chosen in the tree: where a new person goes by default. */
  deptId: number | null;
  departments: Department[];
  onClose: () => void;
  onCreated: (name: string, password: string) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UserForm>();
  const create = useCreateUser();
  const edit = useEditUser();
  const roles = useRoles();
  const tree = useMemo(() => departmentOptions(toDepartmentTree(departments)), [departments]);

  const submit = async (values: UserForm) => {
    const body = {
      name: values.name,
      username: values.username?.trim() || null,
      email: values.email?.trim() || null,
      mobile: values.mobile?.trim() || null,
      deptId: values.deptId,
      roleIdList: values.roleIdList ?? [],
    };
    try {
      if (user) {
        await edit.mutateAsync({ ...body, userId: user.id });
        message.success(t('common.saveOk'));
        onClose();
      } else {
        const created = await create.mutateAsync(body);
        onClose();
        onCreated(values.name, created.password);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const field = FIELD_OF_CODE[error.code];
      if (field) form.setFields([{ name: field, errors: [error.desc] }]);
      else message.error(error.desc);
    }
  };

  return (
    <Modal
      open
      title={user ? t('accounts.editUser') : t('accounts.newUser')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        loading: create.isPending || edit.isPending,
        ...({ 'data-testid': 'user-save' } as Record<`data-${string}`, string>),
      }}
      width={640}
      destroyOnHidden
    >
      <Form<UserForm>
        form={form}
        layout="vertical"
        initialValues={{
          name: user?.name ?? '',
          username: user?.username ?? '',
          email: user?.email ?? '',
          mobile: user?.mobile ?? '',
          deptId: user?.deptId ?? deptId ?? undefined,
          roleIdList: user?.roleIdList ?? [],
        }}
        onFinish={(values) => void submit(values)}
        data-testid="user-form"
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label={t('accounts.name')}
              rules={[
                { required: true, whitespace: true, message: t('accounts.nameRequired') },
                {
                  max: PERSON_NAME_MAX_CHARS,
                  message: t('accounts.tooLong', { max: PERSON_NAME_MAX_CHARS }),
                },
              ]}
            >
              <Input maxLength={PERSON_NAME_MAX_CHARS} data-testid="user-name" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="username"
              label={t('accounts.username')}
              rules={[
                { pattern: /^[A-Za-z0-9._-]*$/, message: t('accounts.usernameFormat') },
                {
                  validator: async (_rule, value: string | undefined) => {
                    if (
                      value &&
                      (RESERVED_USERNAMES as readonly string[]).includes(value.trim().toLowerCase())
                    )
                      throw new Error(t('accounts.usernameReserved'));
                  },
                },
              ]}
            >
              <Input
                maxLength={USERNAME_MAX_CHARS}
                placeholder={t('accounts.optional')}
                data-testid="user-username"
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="email"
              label={t('accounts.email')}
              dependencies={['mobile']}
              rules={[
                { type: 'email', message: t('accounts.emailInvalid') },
                ({ getFieldValue }) => ({
                  validator: async (_rule, value: string | undefined) => {
                    if (!value?.trim() && !String(getFieldValue('mobile') ?? '').trim())
                      throw new Error(t('accounts.emailOrMobile'));
                  },
                }),
              ]}
            >
              <Input maxLength={254} data-testid="user-email" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="mobile"
              label={t('accounts.mobile')}
              rules={[{ pattern: /^\d{11}$/, message: t('accounts.mobileInvalid') }]}
            >
              <Input maxLength={11} inputMode="numeric" data-testid="user-mobile" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="deptId"
          label={t('accounts.department')}
          rules={[{ required: true, message: t('accounts.departmentRequired') }]}
        >
          <TreeSelect
            treeData={tree}
            treeDefaultExpandAll
            showSearch
            treeNodeFilterProp="title"
            data-testid="user-department"
          />
        </Form.Item>
        <Form.Item name="roleIdList" label={t('accounts.roles')} extra={t('accounts.rolesHint')}>
          <Select
            mode="multiple"
            allowClear
            optionFilterProp="label"
            loading={roles.isPending}
            options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
            data-testid="user-roles"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
