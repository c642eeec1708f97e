import { UploadOutlined } from '@ant-design/icons';
import type { TagModelImportResult } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, List, Modal, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { filesKeys } from '../../api/items';
import { notifySuccess } from '../../api/notify';
import { useBusyAction } from '../../api/useBusyAction';
import { WorkbookInput } from '../../ui/WorkbookInput';

type Change = TagModelImportResult['changes'][number];

const send = (file: File, dryRun: boolean) => {
  const form = new FormData();
  form.append('file', file);
  return call(endpoints.importTagWorkbook, {
    body: form,
    query: { dryRun: dryRun ? '1' : '0' },
    silent: true,
  });
};

/**
 * SPEC §2 "batch tag import" dialog: a tag workbook (as exported) is read and checked first — a
 * dry run listing the files whose tags would change, before and after, and every problem with its
 * row — and applied only when the user has seen that and nothing is wrong.
 */
export function TagImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<TagModelImportResult | null>(null);
  const [busy, run] = useBusyAction();

  const check = (picked: File) => {
    setFile(picked);
    setPreview(null);
    return run(async () => setPreview(await send(picked, true)));
  };

  const apply = async () => {
    if (!file) return;
    await run(async () => {
      const result = await send(file, false);
      await queryClient.invalidateQueries({ queryKey: filesKeys.all });
      notifySuccess(t('tagImport.applied', { count: result.changed }));
      onClose();
    });
  };

  return (
    <Modal
      open
      width={760}
      title={t('tagImport.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={busy && preview !== null}
            disabled={!preview || preview.problemCount > 0 || preview.changed === 0}
            onClick={() => void apply()}
            data-testid="tag-import-apply"
          >
            {t('tagImport.apply', { count: preview?.changed ?? 0 })}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="tag-import-dialog">
        <Typography.Text type="secondary">{t('tagImport.hint')}</Typography.Text>
        <Space>
          <Button
            icon={<UploadOutlined />}
            loading={busy && preview === null}
            onClick={() => input.current?.click()}
            data-testid="tag-import-pick"
          >
            {file ? t('tagImport.pickAnother') : t('tagImport.pick')}
          </Button>
          {file && <Typography.Text>{file.name}</Typography.Text>}
        </Space>
        <WorkbookInput ref={input} testId="tag-import-input" onFile={(file) => void check(file)} />
        {preview && (
          <>
            <Alert
              type={preview.problemCount > 0 ? 'error' : 'success'}
              showIcon
              data-testid="tag-import-summary"
              title={t('tagImport.summary', {
                total: preview.total,
                changed: preview.changed,
                unchanged: preview.unchanged,
                problems: preview.problemCount,
              })}
              description={preview.problemCount > 0 ? t('tagImport.fixFirst') : undefined}
            />
            {preview.problems.length > 0 && (
              <List
                size="small"
                bordered
                style={{ maxHeight: 180, overflow: 'auto' }}
                dataSource={preview.problems}
                renderItem={(problem) => (
                  <List.Item data-testid="tag-import-problem">
                    <Typography.Text type="danger">{problem.message}</Typography.Text>
                  </List.Item>
                )}
              />
            )}
            {preview.changes.length > 0 && (
              <Table<Change>
                size="small"
                rowKey="folderDataId"
                pagination={false}
                scroll={{ y: 260 }}
                dataSource={preview.changes}
                onRow={() => ({ 'data-testid': 'tag-import-change' }) as React.HTMLAttributes<HTMLElement>}
                columns={[
                  { title: t('tagImport.row'), dataIndex: 'row', width: 64 },
                  { title: t('viewer.name'), dataIndex: 'name', width: 160, ellipsis: true },
                  {
                    title: t('tagImport.before'),
                    render: (_v, change) => change.before.map((name) => <Tag key={name}>{name}</Tag>),
                  },
                  {
                    title: t('tagImport.after'),
                    render: (_v, change) =>
                      change.after.map((name) => (
                        <Tag key={name} color={change.before.includes(name) ? undefined : 'green'}>
                          {name}
                        </Tag>
                      )),
                  },
                ]}
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}
