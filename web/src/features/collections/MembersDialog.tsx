import type { CollectionMemberRole, CollectionSummary } from '@dam/contract';
import { Alert, Button, List, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { useColleagues, useCollectionMembers, useSaveMembers } from './api';

interface Draft {
  userId: number;
  name: string;
  email: string | null;
  role: CollectionMemberRole;
}

/**
 * A collection's members: the owner lets colleagues in as editors or viewers, changes their role
 * or lets them go, and saves the whole list at once; others see who is in.
 */
export function MembersDialog({
  collection,
  onClose,
}: {
  collection: CollectionSummary;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const owner = collection.role === 'owner';
  const members = useCollectionMembers(collection.id);
  const save = useSaveMembers();
  /** The owner's edits; until the first, the list as the server has it. */
  const [draft, setDraft] = useState<Draft[] | null>(null);
  const [keyword, setKeyword] = useState('');
  const colleagues = useColleagues(useDebouncedValue(keyword, 300));
  const list = draft ?? members.data?.members ?? [];
  const taken = new Set([collection.ownerId, ...list.map((m) => m.userId)]);
  const roleOptions = (['editor', 'viewer'] as const).map((role) => ({
    value: role,
    label: t(`collections.role.${role}`),
  }));
  const submit = async () => {
    await save.mutateAsync({
      id: collection.id,
      members: list.map(({ userId, role }) => ({ userId, role })),
    });
    notifySuccess(t('common.saveOk'));
    onClose();
  };
  return (
    <Modal
      open
      title={t('collections.membersTitle', { name: collection.name })}
      onCancel={onClose}
      width={560}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={owner ? () => void submit() : onClose}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'collection-members-save' } as never}
      cancelButtonProps={{ style: owner ? {} : { display: 'none' } }}
    >
      <Alert type="info" showIcon message={t('collections.membersHint')} style={{ marginBottom: 12 }} />
      {owner && (
        <Select
          showSearch
          value={null}
          filterOption={false}
          onSearch={setKeyword}
          placeholder={t('collections.searchColleague')}
          aria-label={t('collections.addMember')}
          style={{ width: '100%', marginBottom: 12 }}
          loading={colleagues.isFetching}
          data-testid="collection-member-search"
          options={(colleagues.data ?? [])
            .filter((c) => !taken.has(c.userId))
            .map((c) => ({
              value: c.userId,
              label: `${c.name} <${c.email}>${c.deptName ? ` · ${c.deptName}` : ''}`,
            }))}
          onChange={(userId: number) => {
            const found = colleagues.data?.find((c) => c.userId === userId);
            if (found) setDraft([...list, { userId, name: found.name, email: found.email, role: 'viewer' }]);
          }}
        />
      )}
      <List
        size="small"
        loading={members.isPending}
        locale={{ emptyText: t('collections.noMembers') }}
        dataSource={list}
        data-testid="collection-member-list"
        renderItem={(member) => (
          <List.Item
            data-testid="collection-member"
            actions={
              owner
                ? [
                    <Button
                      key="remove"
                      type="link"
                      danger
                      size="small"
                      onClick={() => setDraft(list.filter((m) => m.userId !== member.userId))}
                    >
                      {t('collections.removeMember')}
                    </Button>,
                  ]
                : []
            }
          >
            <Space direction="vertical" size={0} style={{ flex: 1, minWidth: 0 }}>
              <Typography.Text>{member.name}</Typography.Text>
              {member.email && <Typography.Text type="secondary">{member.email}</Typography.Text>}
            </Space>
            {owner ? (
              <Select
                size="small"
                value={member.role}
                options={roleOptions}
                aria-label={t('collections.members')}
                style={{ width: 110 }}
                onChange={(role: CollectionMemberRole) =>
                  setDraft(list.map((m) => (m.userId === member.userId ? { ...m, role } : m)))
                }
              />
            ) : (
              <Typography.Text type="secondary">{t(`collections.role.${member.role}`)}</Typography.Text>
            )}
          </List.Item>
        )}
      />
    </Modal>
  );
}
