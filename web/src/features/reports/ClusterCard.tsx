import { DeleteOutlined, FileImageOutlined } from '@ant-design/icons';
import type { DuplicateCluster, DuplicateMember } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { formatSize } from '../../ui/format';
import { duplicateKeys } from './duplicatesApi';

const tileStyle: CSSProperties = {
  width: 196,
  padding: 8,
  border: '1px solid #f0f0f0',
  borderRadius: 8,
  background: '#fff',
  textAlign: 'start',
  cursor: 'pointer',
  font: 'inherit',
  display: 'flex',
  flexDirection: 'column',
  gap: 2,
};
const thumbStyle: CSSProperties = {
  width: '100%',
  height: 132,
  borderRadius: 4,
  background: '#fafafa',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  overflow: 'hidden',
  marginBottom: 4,
};
const lineStyle: CSSProperties = { fontSize: 12, display: 'block' };

function MemberTile({ member, onOpen }: { member: DuplicateMember; onOpen: () => void }) {
  const { t } = useTranslation();
  const pixels = member.width && member.height ? `${member.width} × ${member.height}` : '—';
  return (
    <button
      type="button"
      onClick={onOpen}
      style={{ ...tileStyle, borderColor: member.keep ? '#95de64' : '#f0f0f0' }}
      data-testid="duplicate-member"
      data-keep={member.keep}
      title={t('duplicates.open')}
    >
      <div style={thumbStyle}>
        {member.compactUrl ? (
          <img
            src={member.compactUrl}
            alt={member.name}
            loading="lazy"
            style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        ) : (
          <FileImageOutlined style={{ fontSize: 36, color: '#bfbfbf' }} />
        )}
      </div>
      <Space size={4} style={{ width: '100%' }}>
        {member.keep && (
          <Tag color="success" style={{ marginInlineEnd: 0 }} data-testid="duplicate-kept">
            {t('duplicates.kept')}
          </Tag>
        )}
        <Typography.Text
          strong
          ellipsis={{ tooltip: member.name }}
          style={{ maxWidth: member.keep ? 130 : 178 }}
        >
          {member.name}
        </Typography.Text>
      </Space>
      <Typography.Text type="secondary" ellipsis={{ tooltip: member.path }} style={lineStyle}>
        {member.path}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={lineStyle}>
        {t('duplicates.department')}: {member.deptName || '—'}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={lineStyle}>
        {t('duplicates.owner')}: {member.userName}
      </Typography.Text>
      <Typography.Text style={lineStyle}>
        {pixels} · {formatSize(member.fileSize)}
      </Typography.Text>
      {!member.keep && member.distance !== null && (
        <Typography.Text type="secondary" style={lineStyle}>
          {t('duplicates.distance', { bits: member.distance })}
        </Typography.Text>
      )}
    </button>
  );
}

/** One cluster of near-duplicates: its members as tiles, and removing the copies of the kept one. */
export function ClusterCard({
  cluster,
  onOpen,
}: {
  cluster: DuplicateCluster;
  onOpen: (members: DuplicateMember[], id: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  // Only copies compared with the kept image itself: one joined through a chain (A~B~C) may differ.
  const copies = cluster.members.filter((member) => !member.keep && member.distance !== null);
  // The ordinary deletion, one transaction: a copy the administrator may not change refuses all.
  const removeCopies = async () => {
    setRemoving(true);
    try {
      await call(endpoints.deleteItems, {
        body: { idList: copies.map((member) => member.id), folderIdList: [] },
      });
      void message.success(t('duplicates.copiesRemoved', { count: copies.length }));
      await queryClient.invalidateQueries({ queryKey: duplicateKeys.all });
    } catch {
      // The client has shown the server's reason.
    } finally {
      setRemoving(false);
    }
  };
  return (
    <Card
      size="small"
      title={t('duplicates.cluster', { count: cluster.members.length })}
      extra={
        <Space size={12}>
          <Typography.Text type="warning">
            {t('duplicates.freeable', { size: formatSize(cluster.bytesFreeable) })}
          </Typography.Text>
          {copies.length > 0 && (
            <Popconfirm
              title={t('duplicates.removeCopiesConfirm', { count: copies.length })}
              okText={t('duplicates.removeCopies')}
              okButtonProps={{ danger: true }}
              onConfirm={removeCopies}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                loading={removing}
                data-testid="duplicate-remove-copies"
              >
                {t('duplicates.removeCopies')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      }
      data-testid="duplicate-cluster"
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12 }}>
        {cluster.members.map((member) => (
          <MemberTile key={member.id} member={member} onOpen={() => onOpen(cluster.members, member.id)} />
        ))}
      </div>
    </Card>
  );
}
