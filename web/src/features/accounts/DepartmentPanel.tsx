import { ApartmentOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DEPARTMENT_NAME_MAX_CHARS,
  type Department,
  type DepartmentNode,
  toDepartmentTree,
} from '@dam/contract';
import {
  App,
  Button,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Tooltip,
  TreeSelect,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { FormModal } from '../../ui/FormModal';
import {
  useCreateDepartment,
  useDeleteDepartment,
  useEditDepartment,
  useRoles,
  useUsers,
} from './accountsApi';
import { DepartmentTree } from './DepartmentTree';

interface DepartmentForm {
  name: string;
  parentId: number;
  headUserId: number | null;
  roleIdList: number[];
}

export interface TreeSelectNode {
  value: number;
  title: string;
  disabled?: boolean;
  children: TreeSelectNode[];
}

/** Departments as TreeSelect options; `exclude` (a department being moved) and its subtree are disabled. */
export function departmentOptions(
  nodes: DepartmentNode[],
  exclude?: number,
  inExcluded = false,
): TreeSelectNode[] {
  return nodes.map((node) => {
    const disabled = inExcluded || node.id === exclude;
    return {
      value: node.id,
      title: node.name,
      disabled,
      children: departmentOptions(node.children, exclude, disabled),
    };
  });
}

function DepartmentDialog({
  target,
  departments,
  onClose,
}: {
  /** A department to edit, or the parent of a new one. */
  target: { edit: Department } | { parentId: number };
  departments: Department[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DepartmentForm>();
  const create = useCreateDepartment();
  const edit = useEditDepartment();
  const roles = useRoles();
  const editing = 'edit' in target ? target.edit : null;
  const isRoot = editing?.parentId === null;
  // The head is chosen among the department's own members (and those below).
  const members = useUsers({ deptId: editing?.id, pageSize: 100 }, editing !== null);
  const tree = useMemo(() => toDepartmentTree(departments), [departments]);

  const submit = async (values: DepartmentForm) => {
    const body = {
      name: values.name,
      parentId: values.parentId,
      headUserId: values.headUserId ?? null,
      roleIdList: values.roleIdList ?? [],
    };
    if (editing) await edit.mutateAsync({ ...body, deptId: editing.id });
    else await create.mutateAsync(body);
  };

  return (
    <FormModal<DepartmentForm>
      form={form}
      title={editing ? t('accounts.editDepartment') : t('accounts.newDepartment')}
      onSave={submit}
      onClose={onClose}
      saveTestId="department-save"
      formProps={{
        initialValues: {
          name: editing?.name ?? '',
          parentId: editing ? (editing.parentId ?? undefined) : (target as { parentId: number }).parentId,
          headUserId: editing?.headUserId ?? null,
          roleIdList: editing?.roleIdList ?? [],
        },
      }}
    >
      <Form.Item
        name="name"
        label={t('accounts.departmentName')}
        rules={[
          { required: true, whitespace: true, message: t('accounts.departmentNameRequired') },
          {
            max: DEPARTMENT_NAME_MAX_CHARS,
            message: t('accounts.tooLong', { max: DEPARTMENT_NAME_MAX_CHARS }),
          },
        ]}
      >
        <Input maxLength={DEPARTMENT_NAME_MAX_CHARS} showCount data-testid="department-name" />
      </Form.Item>
      {!isRoot && (
        <Form.Item
          name="parentId"
          label={t('accounts.parentDepartment')}
          rules={[{ required: true, message: t('accounts.parentRequired') }]}
        >
          <TreeSelect
            treeData={departmentOptions(tree, editing?.id)}
            treeDefaultExpandAll
            showSearch
            treeNodeFilterProp="title"
            data-testid="department-parent"
          />
        </Form.Item>
      )}
      {editing && (
        <Form.Item name="headUserId" label={t('accounts.head')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            loading={members.isPending}
            placeholder={t('accounts.noHead')}
            options={(members.data?.list ?? []).map((user) => ({ value: user.id, label: user.name }))}
          />
        </Form.Item>
      )}
      <Form.Item
        name="roleIdList"
        label={t('accounts.departmentRoles')}
        extra={t('accounts.departmentRolesHint')}
      >
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          loading={roles.isPending}
          options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
        />
      </Form.Item>
    </FormModal>
  );
}

/**
 * The department tree of the users screen: choosing a department lists its people; the buttons
 * add a department under the chosen one, rename or move it, and delete it (only when empty).
 */
export function DepartmentPanel({
  departments,
  loading,
  selectedId,
  onSelect,
}: {
  departments: Department[];
  loading: boolean;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const remove = useDeleteDepartment();
  const [dialog, setDialog] = useState<{ edit: Department } | { parentId: number } | null>(null);
  const selected = departments.find((d) => d.id === selectedId) ?? null;

  const deleteSelected = async () => {
    if (!selected) return;
    try {
      await remove.mutateAsync({ deptId: selected.id });
      void message.success(t('common.deleteOk'));
      if (selected.parentId !== null) onSelect(selected.parentId);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <div data-testid="department-panel">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>
          <ApartmentOutlined /> {t('accounts.departments')}
        </Typography.Text>
        <Space size={2}>
          <Tooltip title={t('accounts.newDepartment')}>
            <Button
              size="small"
              type="text"
              icon={<PlusOutlined />}
              disabled={!selected}
              onClick={() => selected && setDialog({ parentId: selected.id })}
              aria-label={t('accounts.newDepartment')}
              data-testid="department-add"
            />
          </Tooltip>
          <Tooltip title={t('accounts.editDepartment')}>
            <Button
              size="small"
              type="text"
              icon={<EditOutlined />}
              disabled={!selected}
              onClick={() => selected && setDialog({ edit: selected })}
              aria-label={t('accounts.editDepartment')}
              data-testid="department-edit"
            />
          </Tooltip>
          <Popconfirm
            title={t('accounts.deleteDepartmentConfirm', { name: selected?.name ?? '' })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, loading: remove.isPending }}
            onConfirm={() => deleteSelected()}
            disabled={!selected || selected.parentId === null}
          >
            <Tooltip title={t('accounts.deleteDepartment')}>
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={!selected || selected.parentId === null}
                aria-label={t('accounts.deleteDepartment')}
                data-testid="department-delete"
              />
            </Tooltip>
          </Popconfirm>
        </Space>
      </Space>
      {loading ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : departments.length === 0 ? (
        <Empty description={t('accounts.noDepartments')} />
      ) : (
        <DepartmentTree
          departments={departments}
          selectedId={selectedId}
          onSelect={(id) => id !== null && onSelect(id)}
        />
      )}
      {dialog && (
        <DepartmentDialog target={dialog} departments={departments} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
