import { ApartmentOutlined, CloseOutlined } from '@ant-design/icons';
import { LIMITS, MAIL_GROUP_MAX_USERS } from '@dam/contract';
import { Button, Empty, Input, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../ui/testId';
import { DepartmentTree } from '../accounts';
import styles from './MemberPicker.module.css';
import { useMemberCandidates, useMemberDepartments } from './mailGroupsApi';
import { type PickedMember, toggleMembers } from './members';

const PAGE_SIZE = 8;

/**
 * Members of a mail group picked from the users the administrator may add: a department tree
 * (nothing chosen: every department of their reach) beside a searchable, paged list with ticks,
 * and the people picked so far as tags above. A form field: `value` and `onChange`.
 */
export function MemberPicker({
  value = [],
  onChange,
}: {
  value?: PickedMember[];
  onChange?: (members: PickedMember[]) => void;
}) {
  const { t } = useTranslation();
  const departments = useMemberDepartments();
  const [deptId, setDeptId] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const candidates = useMemberCandidates({
    ...(deptId === null ? {} : { deptId }),
    ...(keyword ? { keyword } : {}),
    pageNo,
    pageSize: PAGE_SIZE,
  });
  const picked = new Set(value.map((member) => member.userId));
  const change = (members: PickedMember[]) => onChange?.(members.slice(0, MAIL_GROUP_MAX_USERS));

  return (
    <div className={styles.picker} data-testid="member-picker">
      <div className={styles.picked}>
        <div className={styles.pickedHead}>
          <Typography.Text strong data-testid="member-count">
            {t('mailGroups.selected', { count: value.length })}
          </Typography.Text>
          {value.length > 0 && (
            <Button size="small" type="link" onClick={() => change([])}>
              {t('mailGroups.clear')}
            </Button>
          )}
        </div>
        {value.length === 0 ? (
          <Typography.Text type="secondary">{t('mailGroups.noneSelected')}</Typography.Text>
        ) : (
          <div className={styles.tags}>
            {value.map((member) => (
              <Tag
                key={member.userId}
                closable
                closeIcon={<CloseOutlined aria-label={t('mailGroups.remove', { name: member.name })} />}
                onClose={(event) => {
                  event.preventDefault();
                  change(value.filter((m) => m.userId !== member.userId));
                }}
                data-testid="member-tag"
              >
                {member.name}
              </Tag>
            ))}
          </div>
        )}
      </div>
      <div className={styles.body}>
        <div className={styles.tree}>
          <Typography.Text strong className={styles.treeHead}>
            <ApartmentOutlined /> {t('mailGroups.departments')}
          </Typography.Text>
          {departments.isPending ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : (departments.data?.departments.length ?? 0) === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('mailGroups.noDepartments')} />
          ) : (
            <DepartmentTree
              departments={departments.data?.departments ?? []}
              selectedId={deptId}
              deselectable
              onSelect={(id) => {
                setDeptId(id);
                setPageNo(1);
              }}
            />
          )}
        </div>
        <div className={styles.users}>
          <Input.Search
            allowClear
            maxLength={LIMITS.searchChars}
            placeholder={t('mailGroups.searchUsers')}
            onSearch={(text) => {
              setKeyword(text.trim());
              setPageNo(1);
            }}
            data-testid="member-search"
          />
          <Table<PickedMember>
            rowKey="userId"
            size="small"
            loading={candidates.isPending || candidates.isFetching}
            dataSource={candidates.data?.list ?? []}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={keyword ? t('mailGroups.noUserMatch') : t('mailGroups.noUsers')}
                />
              ),
            }}
            rowSelection={{
              selectedRowKeys: (candidates.data?.list ?? [])
                .filter((row) => picked.has(row.userId))
                .map((row) => row.userId),
              getCheckboxProps: (row) => ({
                ...testId('member-check'),
                'aria-label': row.name,
              }),
              onSelect: (row, selected) => change(toggleMembers(value, [row], selected)),
              onSelectAll: (selected, _rows, changed) => change(toggleMembers(value, changed, selected)),
            }}
            pagination={{
              current: pageNo,
              pageSize: PAGE_SIZE,
              total: candidates.data?.total ?? 0,
              size: 'small',
              showSizeChanger: false,
              onChange: setPageNo,
            }}
            columns={[
              {
                title: t('mailGroups.userName'),
                dataIndex: 'name',
                ellipsis: true,
                render: (name: string) => <span data-testid="member-candidate">{name}</span>,
              },
              {
                title: t('mailGroups.email'),
                dataIndex: 'email',
                ellipsis: true,
                render: (email: string | null) =>
                  email ?? (
                    <Tooltip title={t('mailGroups.noEmailHint')}>
                      <Tag color="warning">{t('mailGroups.noEmail')}</Tag>
                    </Tooltip>
                  ),
              },
              { title: t('mailGroups.department'), dataIndex: 'deptName', width: 130, ellipsis: true },
            ]}
          />
        </div>
      </div>
    </div>
  );
}
