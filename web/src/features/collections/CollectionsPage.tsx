import { PlusOutlined } from '@ant-design/icons';
import type { CollectionSummary } from '@dam/contract';
import { Button, Col, Empty, Row, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCollections } from './api';
import { CollectionCard } from './CollectionCard';
import { CollectionDialog } from './CollectionDialog';
import { MembersDialog } from './MembersDialog';

/** The "Collections" side tab (issue 43): the caller's collections and those they are a member of. */
export function CollectionsPage() {
  const { t } = useTranslation();
  const collections = useCollections();
  const [editing, setEditing] = useState<CollectionSummary | 'new' | null>(null);
  const [members, setMembers] = useState<CollectionSummary | null>(null);
  const list = collections.data ?? [];
  return (
    <div data-testid="collections-page" style={{ padding: 16 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('collections.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('collections.intro')}</Typography.Text>
        </div>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="collection-new"
        >
          {t('collections.create')}
        </Button>
      </div>
      {collections.isPending ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty description={t('collections.empty')} />
      ) : (
        <Row gutter={[12, 12]}>
          {list.map((collection) => (
            <Col key={collection.id} xs={24} md={12} xl={8} xxl={6}>
              <CollectionCard
                collection={collection}
                onEdit={() => setEditing(collection)}
                onMembers={() => setMembers(collection)}
              />
            </Col>
          ))}
        </Row>
      )}
      {editing && <CollectionDialog collection={editing} onClose={() => setEditing(null)} />}
      {members && <MembersDialog collection={members} onClose={() => setMembers(null)} />}
    </div>
  );
}
