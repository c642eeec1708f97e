import { PlusOutlined } from '@ant-design/icons';
import { CHANNEL_TAG_MAX_CHARS, type FileDetail, type TagOfFile } from '@dam/contract';
import { App, Button, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { useAddChannelTag, useChannelTags, useDeleteChannelTag } from './api';

/** The file's tags grouped by dimension, in selector order (SPEC §2 info panel "tags by dimension"). */
export function groupTagsByDimension(tags: TagOfFile[]): Array<{ dimensionName: string; tags: TagOfFile[] }> {
  const groups = new Map<number, { dimensionName: string; tags: TagOfFile[] }>();
  for (const tag of tags) {
    const group = groups.get(tag.dimensionId) ?? { dimensionName: tag.dimensionName, tags: [] };
    group.tags.push(tag);
    groups.set(tag.dimensionId, group);
  }
  return [...groups.values()];
}

export function TagsByDimension({ file }: { file: FileDetail }) {
  const { t } = useTranslation();
  const groups = groupTagsByDimension(file.tagDTOList);
  if (groups.length === 0) return <Typography.Text type="secondary">{t('viewer.noTags')}</Typography.Text>;
  return (
    <Space orientation="vertical" size={4} data-testid="file-tags">
      {groups.map((group) => (
        <span key={group.dimensionName}>
          <Typography.Text type="secondary">{group.dimensionName}：</Typography.Text>
          {group.tags.map((tag) => (
            <Tag key={tag.id}>{tag.tagName}</Tag>
          ))}
        </span>
      ))}
    </Space>
  );
}

/** SPEC §2 info panel: channel tags, added and deleted by whoever may edit the file. */
export function ChannelTags({ file }: { file: FileDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const editable = file.authList.includes('edit');
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const tags = useChannelTags(file.id);
  const add = useAddChannelTag(file.id);
  const remove = useDeleteChannelTag(file.id);
  const submit = async () => {
    const value = name.trim();
    // SPEC §5: not empty, at most 10 characters.
    if (!value) {
      void message.error(t('viewer.channelTagEmpty'));
      return;
    }
    try {
      await add.mutateAsync(value);
      setName('');
      setAdding(false);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Space size={[4, 6]} wrap data-testid="channel-tags">
      {(tags.data ?? []).map((tag) => (
        <Tag
          key={tag.id}
          color="blue"
          closable={editable ? { 'aria-label': t('common.delete') } : false}
          onClose={(event) => {
            event.preventDefault();
            remove.mutate(tag.id);
          }}
        >
          {tag.channelName}
        </Tag>
      ))}
      {(tags.data ?? []).length === 0 && !editable && <Typography.Text type="secondary">—</Typography.Text>}
      {editable &&
        (adding ? (
          <Input
            size="small"
            autoFocus
            value={name}
            maxLength={CHANNEL_TAG_MAX_CHARS}
            onChange={(e) => setName(e.target.value)}
            onPressEnter={() => void submit()}
            onBlur={() => (name.trim() ? void submit() : setAdding(false))}
            style={{ width: 110 }}
            data-testid="channel-tag-input"
          />
        ) : (
          <Button
            size="small"
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="channel-tag-add"
          >
            {t('viewer.addChannelTag')}
          </Button>
        ))}
    </Space>
  );
}
