import { DiffOutlined } from '@ant-design/icons';
import type { FileDetail, SimilarItem } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Collapse, Descriptions, List, Space, Spin, Tag, Typography } from 'antd';
import { lazy, type MutableRefObject, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesKeys } from '../../api/items';
import { formatDate, formatSize } from '../../ui/format';
import { loadMetadataSection } from '../metadata/lazy';
import { loadReviewSection } from '../review/lazy';
import { useSimilarOfFile } from '../similar';
import { loadSimilarSection } from '../similar/lazy';
import { viewerApi } from './api';
import { CompareVersions, comparableRecords } from './CompareVersions';
import { EditForm } from './EditForm';
import { ChannelTags, TagsByDimension } from './FileTags';
import styles from './viewer.module.css';

// "Similar images" loads with its section, when the user opens it (issue 17).
const SimilarSection = lazy(async () => ({
  default: (await loadSimilarSection()).SimilarSection,
}));

// "Review" (issue 43): its own chunk, loaded with the panel.
const ReviewSection = lazy(async () => ({
  default: (await loadReviewSection()).ReviewSection,
}));

// "Metadata" (issue 42): its own chunk too, loaded with the panel as the section is open at first.
const MetadataSection = lazy(async () => ({
  default: (await loadMetadataSection()).MetadataSection,
}));

/** SPEC §2 info panel: every field of the file, its upload records; edit mode to change them. */
export function InfoPanel({
  file,
  editing,
  onEditDone,
  onCancelEdit,
  changed,
  onMerged,
  onOpenSimilar,
}: {
  file: FileDetail;
  editing: boolean;
  onEditDone: () => void;
  /** Leaves the edit mode without saving (asked first when something changed). */
  onCancelEdit: () => void;
  /** Whether the edit form holds changes not saved (set by the form). */
  changed: MutableRefObject<() => boolean>;
  onMerged: (id: number) => void;
  /** Opens one of the file's similar images in the viewer, stepping through `list`. */
  onOpenSimilar: (list: SimilarItem[], id: number) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
  // Asked for once the section is opened (SimilarSection shares the answer): the count in its title.
  const [similarOpen, setSimilarOpen] = useState(false);
  const similar = useSimilarOfFile(file.id, similarOpen);
  const similarCount = similar.data ? similar.data.near.length : null;
  const comparable = comparableRecords(file.folderDataInfoDTOList);
  const [comparing, setComparing] = useState(false);

  const removeRecord = (recordId: number) =>
    modal.confirm({
      title: t('viewer.confirmDeleteRecord'),
      okButtonProps: { danger: true },
      okText: t('common.delete'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await viewerApi.deleteVersion(file.id, recordId);
        await refresh();
      },
    });

  return (
    <aside className={styles.panel} data-testid="info-panel">
      {file.expired && (
        <Alert type="warning" showIcon title={t('viewer.expiredNotice')} style={{ marginBottom: 12 }} />
      )}
      {editing ? (
        <EditForm
          file={file}
          onDone={onEditDone}
          onCancel={onCancelEdit}
          changed={changed}
          onMerged={onMerged}
        />
      ) : (
        <InfoFields file={file} />
      )}
      <Suspense fallback={<Spin size="small" />}>
        <ReviewSection key={file.id} itemId={file.id} />
      </Suspense>
      <MetadataCollapse fileId={file.id} />
      <Collapse
        ghost
        size="small"
        style={{ marginTop: 8 }}
        data-testid="similar-section"
        onChange={(keys) => setSimilarOpen(keys.includes('similar'))}
        items={[
          {
            key: 'similar',
            label:
              similarCount === null
                ? t('similar.title')
                : t('similar.titleCount', { count: String(similarCount) }),
            // Mounted (and so asked for) only once opened; kept while the file stays the same.
            children: (
              <Suspense fallback={<Spin size="small" />}>
                <SimilarSection key={file.id} fileId={file.id} onOpen={onOpenSimilar} />
              </Suspense>
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 16, width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('viewer.records')}
        </Typography.Title>
        {comparable.length >= 2 && (
          <Button
            size="small"
            icon={<DiffOutlined />}
            onClick={() => setComparing(true)}
            data-testid="compare-open"
          >
            {t('viewer.compare.open')}
          </Button>
        )}
      </Space>
      <List
        size="small"
        dataSource={file.folderDataInfoDTOList}
        data-testid="info-records"
        renderItem={(record) => (
          <List.Item
            actions={[
              record.previewUrl && (
                <a key="view" href={record.previewUrl} target="_blank" rel="noreferrer">
                  {t('viewer.view')}
                </a>
              ),
              record.url && (
                <a key="download" href={record.url}>
                  {t('viewer.download')}
                </a>
              ),
              editing && file.folderDataInfoDTOList.length > 1 && (
                <Button key="delete" type="link" danger size="small" onClick={() => removeRecord(record.id)}>
                  {t('viewer.deleteRecord')}
                </Button>
              ),
            ].filter(Boolean)}
          >
            <List.Item.Meta
              title={
                <Space size={4}>
                  {record.fileFormat.toUpperCase()}
                  {record.hide && <Tag>{t('viewer.hidden')}</Tag>}
                </Space>
              }
              description={`${formatSize(record.fileSize)} · ${record.userName} · ${formatDate(record.uploadTime)}`}
            />
          </List.Item>
        )}
      />
      {comparing && <CompareVersions records={comparable} onClose={() => setComparing(false)} />}
    </aside>
  );
}

/**
 * What the file carries inside it (camera, creator, copyright…). Open at first: a person opening
 * the panel looks for those at a glance; closed, it stays closed while ← → step through files.
 */
function MetadataCollapse({ fileId }: { fileId: number }) {
  const { t } = useTranslation();
  return (
    <Collapse
      ghost
      size="small"
      style={{ marginTop: 8 }}
      defaultActiveKey={['metadata']}
      data-testid="metadata-section"
      items={[
        {
          key: 'metadata',
          label: t('metadata.title'),
          children: (
            <Suspense fallback={<Spin size="small" />}>
              <MetadataSection key={fileId} fileId={fileId} />
            </Suspense>
          ),
        },
      ]}
    />
  );
}

/** The file's fields, read only. */
function InfoFields({ file }: { file: FileDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} size="small" title={file.name} data-testid="info-fields">
      <Descriptions.Item label={t('viewer.uploader')}>{file.userName}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.createdAt')}>{formatDate(file.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.artNum')}>{file.artNum ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.validity')}>
        <span data-testid="info-validity">
          {file.expireStartTime || file.expireEndTime
            ? `${file.expireStartTime ?? '…'} ~ ${file.expireEndTime ?? '…'}`
            : t('viewer.noLimit')}
        </span>
      </Descriptions.Item>
      <Descriptions.Item label={t('viewer.views')}>{file.viewCount}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.downloads')}>{file.downloadCount}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.path')}>{file.path}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.pixels')}>
        {file.filePx?.replace('*', ' × ') ?? '—'}
      </Descriptions.Item>
      {file.pageCount !== null && (
        <Descriptions.Item label={t('viewer.pages')}>
          <span data-testid="info-pages">{file.pageCount}</span>
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('viewer.size')}>{formatSize(file.totalSize)}</Descriptions.Item>
      <Descriptions.Item label={t('viewer.formats')}>
        <span data-testid="info-formats">{file.fileFormat?.toUpperCase() ?? '—'}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('viewer.tags')}>
        <TagsByDimension file={file} />
      </Descriptions.Item>
      <Descriptions.Item label={t('viewer.channelTags')}>
        <ChannelTags file={file} />
      </Descriptions.Item>
    </Descriptions>
  );
}
