import type { UploadRecordInfo } from '@dam/contract';
import { Empty, Modal, Segmented, Select, Slider, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import styles from './viewer.module.css';

/** The picture a record is looked at by: its preview, else its thumbnail. */
const pictureOf = (record: UploadRecordInfo) => record.previewUrl ?? record.compactUrl;

/** Records that can be looked at, newest first (the order the panel lists them). */
export const comparableRecords = (records: UploadRecordInfo[]) =>
  records.filter((r) => pictureOf(r) !== null);

const labelOf = (record: UploadRecordInfo) =>
  [record.fileFormat.toUpperCase(), record.filePx?.replace('*', ' × '), formatDate(record.uploadTime)]
    .filter(Boolean)
    .join(' · ');

/**
 * Two upload records of a file side by side, or (pictures of the same pixel size) one over the
 * other with a slider that uncovers the second (issue 43 item 4). Opened from the viewer's upload
 * records; Esc closes this layer only.
 */
export function CompareVersions({ records, onClose }: { records: UploadRecordInfo[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [leftId, setLeftId] = useState(records[1]?.id ?? records[0]?.id);
  const [rightId, setRightId] = useState(records[0]?.id);
  const [mode, setMode] = useState<'side' | 'slider'>('side');
  const [split, setSplit] = useState(50);
  const left = records.find((r) => r.id === leftId);
  const right = records.find((r) => r.id === rightId);
  const sameSize = left?.filePx != null && left.filePx === right?.filePx;
  const shown = sameSize ? mode : 'side';
  const options = records.map((r) => ({ value: r.id, label: labelOf(r) }));
  return (
    <Modal
      open
      title={t('viewer.compare.title')}
      footer={null}
      onCancel={onClose}
      width="min(1200px, 96vw)"
      centered
    >
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Select
            value={leftId}
            onChange={setLeftId}
            options={options}
            aria-label={t('viewer.compare.left')}
            style={{ minWidth: 260 }}
            data-testid="compare-left"
          />
          <Select
            value={rightId}
            onChange={setRightId}
            options={options}
            aria-label={t('viewer.compare.right')}
            style={{ minWidth: 260 }}
            data-testid="compare-right"
          />
        </Space>
        <Segmented
          value={shown}
          onChange={(value) => setMode(value as 'side' | 'slider')}
          options={[
            { value: 'side', label: t('viewer.compare.side') },
            { value: 'slider', label: t('viewer.compare.slider'), disabled: !sameSize },
          ]}
          data-testid="compare-mode"
        />
      </Space>
      {!sameSize && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
          {t('viewer.compare.sizesDiffer')}
        </Typography.Paragraph>
      )}
      {!left || !right ? (
        <Empty />
      ) : shown === 'side' ? (
        <div className={styles.compareSide} data-testid="compare-side">
          {(
            [
              ['left', left],
              ['right', right],
            ] as const
          ).map(([side, record]) => (
            <figure key={side} className={styles.compareFigure}>
              <img src={pictureOf(record) ?? undefined} alt={labelOf(record)} />
              <figcaption>{labelOf(record)}</figcaption>
            </figure>
          ))}
        </div>
      ) : (
        <div data-testid="compare-slider">
          <div className={styles.compareStage}>
            <div className={styles.compareOverlay}>
              <img src={pictureOf(left) ?? undefined} alt={labelOf(left)} />
              <img
                src={pictureOf(right) ?? undefined}
                alt={labelOf(right)}
                className={styles.compareTop}
                style={{ clipPath: `inset(0 0 0 ${split}%)` }}
                data-testid="compare-top"
              />
              <div className={styles.compareLine} style={{ left: `${split}%` }} />
            </div>
          </div>
          <Slider
            value={split}
            onChange={setSplit}
            tooltip={{ open: false }}
            aria-label={t('viewer.compare.split')}
          />
        </div>
      )}
    </Modal>
  );
}
