import { Alert, App, Button, List, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../ui/format';
import { matchRepickedFiles } from './engine/resume';
import { useInterruptedUploads } from './InterruptedBanner';
import { useUploadManager } from './UploadProvider';

/** The records screen's list of interrupted uploads, with "pick the files again" and "discard". */
export function InterruptedUploads() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const manager = useUploadManager();
  const interrupted = useInterruptedUploads();
  const input = useRef<HTMLInputElement>(null);
  const [expanded, setExpanded] = useState(false);
  if (interrupted.length === 0) return null;

  const repick = (files: File[]) => {
    const { matched, unmatched } = matchRepickedFiles(files, interrupted);
    if (matched.length > 0) {
      manager.add(
        matched.map(({ record, file }) => ({
          id: record.id,
          fileName: record.fileName,
          fileSize: record.fileSize,
          file,
          path: record.path,
          objectKey: record.url,
        })),
      );
      void message.success(t('upload.resumed', { count: matched.length }));
    }
    if (unmatched.length > 0)
      void message.warning(t('upload.notSameFile', { name: unmatched.map((f) => f.name).join(', ') }));
  };

  const discard = () =>
    modal.confirm({
      title: t('upload.confirmCancel', { count: interrupted.length }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => manager.discard(interrupted.map((record) => record.id)),
    });

  const shown = expanded ? interrupted : interrupted.slice(0, 5);
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="interrupted-uploads"
      title={t('upload.interruptedTitle', { count: interrupted.length })}
      description={
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text>{t('upload.reuploadHint')}</Typography.Text>
          <List
            size="small"
            dataSource={shown}
            renderItem={(record) => (
              <List.Item>
                <Space>
                  <span data-testid="interrupted-name">{record.fileName}</span>
                  <Typography.Text type="secondary">
                    {formatSize(record.fileSize)} · {record.uploadSchedule}%
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
          {interrupted.length > shown.length && (
            <Button type="link" size="small" onClick={() => setExpanded(true)}>
              {t('upload.showAll', { count: interrupted.length })}
            </Button>
          )}
          <Space>
            <Button type="primary" onClick={() => input.current?.click()} data-testid="repick-files">
              {t('upload.repick')}
            </Button>
            <Button danger onClick={discard}>
              {t('upload.discard')}
            </Button>
          </Space>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="repick-input"
            onChange={(e) => {
              repick([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </Space>
      }
    />
  );
}
