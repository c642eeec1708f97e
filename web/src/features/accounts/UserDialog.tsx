import {
  type Department,
  type ManagedUser,
  PERSON_NAME_MAX_CHARS,
  RESERVED_USERNAMES,
  toDepartmentTree,
  USERNAME_MAX_CHARS,
} from '@dam/contract';
import { Col, Form, Input, Row, Select, TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOfCode } from '../../api/showApiError';
import { FormModal } from '../../ui/FormModal';
import { testId } from '../../ui/testId';
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
const FIELD_OF_CODE: FieldOfCode<UserForm> = {
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
  const [form] = Form.useForm<UserForm>();
  const create = useCreateUser();
  const edit = useEditUser();
  const roles = useRoles();
  const tree = useMemo(() => departmentOptions(toDepartmentTree(departments)), [departments]);

  const save = async (values: UserForm) => {
    const body = {
      name: values.name,
      username: values.username?.trim() || null,
      email: values.email?.trim() || null,
      mobile: values.mobile?.trim() || null,
      deptId: values.deptId,
      roleIdList: values.roleIdList ?? [],
    };
    if (user) await edit.mutateAsync({ ...body, userId: user.id });
    else onCreated(values.name, (await create.mutateAsync(body)).password);
  };

  return (
    <FormModal<UserForm>
      form={form}
      title={user ? t('accounts.editUser') : t('accounts.newUser')}
      onSave={save}
      onClose={onClose}
      // A new person's first password is shown by the caller instead.
      successText={user ? t('common.saveOk') : null}
      fieldOfCode={FIELD_OF_CODE}
      saveTestId="user-save"
      width={640}
      formProps={{
        initialValues: {
          name: user?.name ?? '',
          username: user?.username ?? '',
          email: user?.email ?? '',
          mobile: user?.mobile ?? '',
          deptId: user?.deptId ?? deptId ?? undefined,
          roleIdList: user?.roleIdList ?? [],
        },
        ...testId('user-form'),
      }}
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
                  if (value && (RESERVED_USERNAMES as readonly string[]).includes(value.trim().toLowerCase()))
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
    </FormModal>
  );
}
