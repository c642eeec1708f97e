import { EditOutlined, TeamOutlined } from '@ant-design/icons';
import type { CollectionSummary } from '@dam/contract';
import { Button, Card, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DeleteConfirmButton } from '../../ui/DeleteConfirmButton';
import { useDeleteCollection } from './api';

const ROLE_COLOUR = { owner: 'blue', editor: 'green', viewer: 'default' } as const;

/** One collection in the list: name, what the caller is to it, counts; the owner's actions. */
export function CollectionCard({
  collection,
  onEdit,
  onMembers,
}: {
  collection: CollectionSummary;
  onEdit: () => void;
  onMembers: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteCollection();
  const owner = collection.role === 'owner';
  return (
    <Card size="small" data-testid="collection-card" data-collection={collection.name}>
      <Space direction="vertical" size={4} style={{ width: '100%' }}>
        <Space style={{ justifyContent: 'space-between', width: '100%' }} align="start">
          <Link to={`/collections/${collection.id}`} data-testid="collection-open">
            <Typography.Text strong>{collection.name}</Typography.Text>
          </Link>
          <Tag color={ROLE_COLOUR[collection.role]}>{t(`collections.role.${collection.role}`)}</Tag>
        </Space>
        {collection.description && (
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
            {collection.description}
          </Typography.Paragraph>
        )}
        <Typography.Text type="secondary">
          {t('collections.itemCount', { count: collection.itemCount })} ·{' '}
          {t('collections.memberCount', { count: collection.memberCount })}
          {owner ? '' : ` · ${t('collections.ownerIs', { name: collection.ownerName })}`}
        </Typography.Text>
        <Space size={0}>
          {collection.role !== 'viewer' && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={onEdit}
              data-testid="collection-edit"
            >
              {t('collections.edit')}
            </Button>
          )}
          <Button
            type="link"
            size="small"
            icon={<TeamOutlined />}
            onClick={onMembers}
            data-testid="collection-members"
          >
            {t('collections.members')}
          </Button>
          {owner && (
            <DeleteConfirmButton
              title={t('collections.deleteConfirm', { name: collection.name })}
              onDelete={() => remove.mutateAsync(collection.id)}
              testId="collection-delete"
            />
          )}
        </Space>
      </Space>
    </Card>
  );
}
