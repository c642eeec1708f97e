import type { FileDetail, SimilarItem } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Collapse,
  DatePicker,
  Descriptions,
  Form,
  Input,
  List,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { showApiError } from '../../api/showApiError';
import { filesKeys } from '../files/api';
import { fileNameProblem, formatDate, formatSize, nameProblemText } from '../files/format';
import { useItemActions } from '../files/useItemActions';
import { AddTagDialog } from '../tagging/AddTagDialog';
import { useModifyTags } from '../tagging/api';
import { useSimilarOfFile, viewerApi } from './api';
import { ChannelTags, TagsByDimension } from './FileTags';
import styles from './viewer.module.css';

// "Similar images" loads with its section, when the user opens it (issue 17).
const SimilarSection = lazy(async () => ({ default: (await import('./SimilarSection')).SimilarSection }));

interface EditForm {
  name: string;
  validity: [Dayjs | null, Dayjs | null] | null;
  artNum: string;
}

/** SPEC §2 info panel: every field of the file, its upload records; edit mode to change them. */
export function InfoPanel({
  file,
  editing,
  onEditDone,
  onMerged,
  onOpenSimilar,
}: {
  file: FileDetail;
  editing: boolean;
  onEditDone: () => void;
  onMerged: (id: number) => void;
  /** Opens one of the file's similar images in the viewer, stepping through `list`. */
  onOpenSimilar: (list: SimilarItem[], id: number) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
  const saving = useRef(false);
  const [savingShown, setSavingShown] = useState(false);
  const actions = useItemActions({ onDone: () => void refresh() });
  const [tagging, setTagging] = useState(false);
  const modifyTags = useModifyTags();
  // Asked for once the section is opened (SimilarSection shares the answer): the count in its title.
  const [similarOpen, setSimilarOpen] = useState(false);
  const similar = useSimilarOfFile(file.id, similarOpen);
  const similarCount = similar.data ? similar.data.near.length : null;

  const save = async (values: EditForm) => {
    // Enter in the date picker confirms the date and submits the form in one keystroke; a second
    // submit while the first is under way is the same save, not another.
    if (saving.current) return;
    saving.current = true;
    setSavingShown(true);
    try {
      await saveOnce(values);
    } finally {
      saving.current = false;
      setSavingShown(false);
    }
  };

  const saveOnce = async (values: EditForm) => {
    const body = {
      folderDataId: file.id,
      ...(values.name.trim() !== file.name ? { name: values.name.trim() } : {}),
      startValidTime: values.validity?.[0]?.format('YYYY-MM-DD') ?? null,
      endValidTime: values.validity?.[1]?.format('YYYY-MM-DD') ?? null,
      artNum: values.artNum.trim() || null,
    };
    const send = (confirmMerge: boolean) =>
      viewerApi.edit({ ...body, ...(confirmMerge ? { confirmMerge } : {}) });
    try {
      let result: { folderDataId: number };
      try {
        result = await send(false);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'SEF_07') throw error;
        const agreed = await modal.confirm({
          title: t('viewer.mergeTitle'),
          content: error.desc,
          okText: t('common.confirm'),
          cancelText: t('common.cancel'),
        });
        if (!agreed) return;
        result = await send(true);
      }
      notifySuccess(t('viewer.saved'));
      await refresh();
      if (result.folderDataId !== file.id) onMerged(result.folderDataId);
      onEditDone();
    } catch (error) {
      showApiError(error);
    }
  };

  const hide = async (format: string) => {
    await viewerApi.hideFormat(file.id, format);
    await refresh();
  };

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

  const formats = file.fileFormat?.split(',') ?? [];
  return (
    <aside className={styles.panel} data-testid="info-panel">
      {file.expired && (
        <Alert type="warning" showIcon title={t('viewer.expiredNotice')} style={{ marginBottom: 12 }} />
      )}
      {editing ? (
        <Form<EditForm>
          layout="vertical"
          initialValues={{
            name: file.name,
            validity:
              file.expireStartTime || file.expireEndTime
                ? [
                    file.expireStartTime ? dayjs(file.expireStartTime) : null,
                    file.expireEndTime ? dayjs(file.expireEndTime) : null,
                  ]
                : null,
            artNum: file.artNum ?? '',
          }}
          onFinish={save}
          data-testid="edit-form"
        >
          <Form.Item
            name="name"
            label={t('viewer.name')}
            rules={[
              {
                validator: (_rule, value: string | undefined) => {
                  const problem = fileNameProblem(value ?? '');
                  return problem ? Promise.reject(new Error(nameProblemText(t, problem))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input data-testid="edit-name" />
          </Form.Item>
          <Form.Item name="validity" label={t('viewer.validity')}>
            <DatePicker.RangePicker
              allowEmpty={[true, true]}
              style={{ width: '100%' }}
              data-testid="edit-validity"
            />
          </Form.Item>
          <Form.Item name="artNum" label={t('viewer.artNum')}>
            <Input />
          </Form.Item>
          <Form.Item label={t('viewer.tags')}>
            <Space orientation="vertical" size={4}>
              <TagsByDimension file={file} />
              <Button size="small" onClick={() => setTagging(true)} data-testid="edit-tags">
                {t('tagging.editTags')}
              </Button>
            </Space>
          </Form.Item>
          {tagging && (
            <AddTagDialog
              title={t('tagging.titleOne', { name: file.name })}
              initial={file.tagDTOList.map((tag) => tag.id)}
              artNums={file.artNum ? [file.artNum] : []}
              onConfirm={async (tagIdList) => {
                await modifyTags({ folderDataId: file.id, tagIdList, mode: 'replace' });
                notifySuccess(t('tagging.saved'));
              }}
              onClose={() => setTagging(false)}
            />
          )}
          {file.authList.includes('edit') && (
            <Form.Item label={t('viewer.path')}>
              <Space>
                <span data-testid="edit-path">{file.path}</span>
                <Button size="small" onClick={() => actions.move([{ id: file.id }])} data-testid="edit-move">
                  {t('files.moveTo')}
                </Button>
              </Space>
            </Form.Item>
          )}
          {formats.length > 1 && (
            <Form.Item label={t('viewer.formats')}>
              <Space wrap>
                {formats.map((format) => (
                  <Button
                    key={format}
                    size="small"
                    onClick={() => void hide(format)}
                    data-testid={`hide-${format}`}
                  >
                    {t('viewer.hideFormat', { format: format.toUpperCase() })}
                  </Button>
                ))}
              </Space>
            </Form.Item>
          )}
          <Space>
            <Button type="primary" htmlType="submit" loading={savingShown} data-testid="edit-save">
              {t('viewer.save')}
            </Button>
            <Button onClick={onEditDone}>{t('viewer.cancelEdit')}</Button>
          </Space>
          {actions.dialogs}
        </Form>
      ) : (
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
      )}
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
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('viewer.records')}
      </Typography.Title>
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
    </aside>
  );
}
