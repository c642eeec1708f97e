import type { RecordMetadata } from '@dam/contract';
import { Segmented, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MappingFindings } from '../metadata-mapping';
import { useFileMetadata } from './api';
import { hasAnything } from './format';
import { MetadataFields } from './MetadataFields';

/**
 * The info panel's "metadata" section (issue 42): what the file's records carry inside them
 * (camera, creator, copyright, keywords…), as the media job read it. A file with several formats
 * has one reading each: the newest first, the others a click away. Its own chunk.
 */
export function MetadataSection({ fileId }: { fileId: number }) {
  const { t } = useTranslation();
  const metadata = useFileMetadata(fileId);
  const [chosen, setChosen] = useState<number | null>(null);
  if (metadata.isPending) return <Spin size="small" />;
  if (metadata.isError) return <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>;
  const { records } = metadata.data;
  // At first the newest record with something to show: a PNG added later without metadata should
  // not hide the camera and creator the JPEG carries.
  const record =
    records.find((r) => r.recordId === chosen) ??
    records.find((r) => r.status === 'ready' && r.metadata && hasAnything(r.metadata)) ??
    records[0];
  return (
    <div data-testid="metadata-body">
      {records.length > 1 && (
        <Segmented
          size="small"
          block
          value={record?.recordId}
          onChange={(value) => setChosen(Number(value))}
          options={records.map((r) => ({ value: r.recordId, label: formatLabel(r, records) }))}
          aria-label={t('metadata.formats')}
          data-testid="metadata-formats"
          style={{ marginBottom: 8 }}
        />
      )}
      {record ? (
        <RecordReading record={record} />
      ) : (
        <Status testId="metadata-empty">{t('metadata.status.empty')}</Status>
      )}
      <MappingFindings fileId={fileId} />
    </div>
  );
}

/** "JPG", or "JPG 2" where two records share a format (a version kept beside another). */
function formatLabel(record: RecordMetadata, all: RecordMetadata[]): string {
  const format = record.format.toUpperCase();
  const same = all.filter((r) => r.format === record.format);
  return same.length > 1 ? `${format} ${same.indexOf(record) + 1}` : format;
}

/** One record's reading: its fields, or why there are none. */
function RecordReading({ record }: { record: RecordMetadata }) {
  const { t } = useTranslation();
  const { status, metadata } = record;
  if (status === 'ready' && metadata && hasAnything(metadata)) return <MetadataFields metadata={metadata} />;
  // A failure's reason is ExifTool's words about a stranger's bytes: for the logs, not the reader.
  const key = status === 'ready' ? 'empty' : status;
  return (
    <Status testId={`metadata-${key}`} status={status}>
      {t(`metadata.status.${key}`)}
    </Status>
  );
}

function Status({ testId, status, children }: { testId: string; status?: string; children: string }) {
  return (
    <Typography.Paragraph type="secondary" data-testid={testId} data-status={status} style={{ margin: 0 }}>
      {children}
    </Typography.Paragraph>
  );
}
