import {
  DeleteOutlined,
  FileImageOutlined,
  FileOutlined,
  TagsOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { UploadGroup } from '@dam/contract';
import { Button, Collapse, Input, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../ui/format';
import { groupOf, type PickedFile } from './engine/pickFiles';

export const GROUPS = [
  { group: UploadGroup.image, key: 'upload.groupImages', icon: <FileImageOutlined /> },
  { group: UploadGroup.video, key: 'upload.groupVideos', icon: <VideoCameraOutlined /> },
  { group: UploadGroup.other, key: 'upload.groupOthers', icon: <FileOutlined /> },
] as const;

/** One picked file's key in the article-number fields. */
export const keyOf = (f: PickedFile) => `${f.path}/${f.fileName}`;

/**
 * The batch upload dialog's files, one panel per group (images, videos, others). A group without
 * files is not shown (issue 39 item 11): it only pushed the dialog's buttons down.
 */
export function UploadGroups({
  files,
  groupTags,
  artNums,
  isUnknown,
  isSimilar,
  onTagGroup,
  onRemove,
  onArtNum,
}: {
  files: PickedFile[];
  groupTags: Partial<Record<UploadGroup, number[]>>;
  artNums: Record<string, string>;
  isUnknown: (f: PickedFile) => boolean;
  isSimilar: (f: PickedFile) => boolean;
  onTagGroup: (group: UploadGroup) => void;
  onRemove: (f: PickedFile) => void;
  onArtNum: (f: PickedFile, value: string) => void;
}) {
  const { t } = useTranslation();
  const groups = GROUPS.map((g) => ({ ...g, members: files.filter((f) => groupOf(f.fileName) === g.group) }));
  return (
    <Collapse
      defaultActiveKey={GROUPS.map((g) => String(g.group))}
      data-testid="upload-groups"
      items={groups
        .filter((g) => g.members.length > 0)
        .map(({ group, key, icon, members }) => {
          const tags = groupTags[group] ?? [];
          return {
            key: String(group),
            label: (
              <Space>
                {icon}
                {t(key)} ({members.length})
              </Space>
            ),
            extra: (
              <Button
                size="small"
                icon={<TagsOutlined />}
                onClick={(event) => {
                  event.stopPropagation();
                  onTagGroup(group);
                }}
                data-testid={`upload-group-tags-${group}`}
              >
                {tags.length > 0 ? t('upload.groupTagged', { count: tags.length }) : t('tagging.action')}
              </Button>
            ),
            children: (
              <List
                size="small"
                dataSource={members}
                style={{ maxHeight: 260, overflow: 'auto' }}
                renderItem={(f) => (
                  <List.Item
                    actions={[
                      <Button
                        key="remove"
                        type="text"
                        size="small"
                        icon={<DeleteOutlined />}
                        aria-label={t('upload.remove')}
                        onClick={() => onRemove(f)}
                      />,
                    ]}
                  >
                    <div style={{ display: 'flex', alignItems: 'center', gap: 12, width: '100%' }}>
                      <Typography.Text ellipsis={{ tooltip: true }} style={{ flex: 1, minWidth: 120 }}>
                        {f.path ? `${f.path}/` : ''}
                        {f.fileName}
                      </Typography.Text>
                      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                        {formatSize(f.size)}
                      </Typography.Text>
                      <Input
                        size="small"
                        style={{ width: 160 }}
                        placeholder={t('upload.artNum')}
                        title={t('upload.artNumPlaceholder')}
                        status={isUnknown(f) ? 'warning' : undefined}
                        value={artNums[keyOf(f)] ?? ''}
                        onChange={(e) => onArtNum(f, e.target.value)}
                      />
                      {isUnknown(f) && (
                        <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid="unknown-art-num">
                          {t('upload.unknownArtNum')}
                        </Tag>
                      )}
                      {isSimilar(f) && (
                        <Tag color="orange" style={{ marginInlineEnd: 0 }} data-testid="similar-tag">
                          {t('similar.upload.tag')}
                        </Tag>
                      )}
                    </div>
                  </List.Item>
                )}
              />
            ),
          };
        })}
    />
  );
}
