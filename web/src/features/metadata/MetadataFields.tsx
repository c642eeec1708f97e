import type { EmbeddedMetadata } from '@dam/contract';
import { Descriptions, Rate, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  captureTimeOf,
  coordinatesOf,
  durationOf,
  frameRateOf,
  knownLabelOf,
  LABEL_COLOURS,
  type MetadataField,
  orientationShown,
  ratingShown,
} from './format';
import { Keywords } from './Keywords';

/**
 * One record's metadata, read only: who made it and may use it first (what a person opening the
 * panel looks for), then how it was taken, then the file's technical make-up. Empty fields are left out.
 */
export function MetadataFields({ metadata: m }: { metadata: EmbeddedMetadata }) {
  const { t } = useTranslation();
  const lines: Array<[key: MetadataField, label: string, value: ReactNode]> = [];
  const add = (key: MetadataField, value: ReactNode, shown = value !== null && value !== '') => {
    if (shown) lines.push([key, t(`metadata.field.${key}`), value]);
  };
  add('title', m.title);
  add('creator', m.creator);
  add('copyright', m.copyright);
  add('usageTerms', m.usageTerms);
  add('description', m.description && <LongText text={m.description} />);
  add('keywords', <Keywords keywords={m.keywords} />, m.keywords.length > 0);
  add('rating', m.rating !== null && <Rating rating={m.rating} />, ratingShown(m.rating));
  add('label', m.label && <Label label={m.label} />);
  add('camera', m.camera);
  add('lens', m.lens);
  add('capturedAt', m.capturedAt && <CaptureTime capturedAt={m.capturedAt} />);
  add('orientation', t(`metadata.orientation.o${m.orientation}`), orientationShown(m.orientation));
  add(
    'gps',
    m.gps && (
      <Typography.Text copyable={{ text: coordinatesOf(m.gps) }} data-testid="metadata-gps">
        {coordinatesOf(m.gps)}
      </Typography.Text>
    ),
  );
  add('colour', [m.iccProfile, m.colourSpace].filter(Boolean).join(' · '));
  add('layers', m.layerCount);
  add('pages', m.pageCount);
  add('duration', m.duration !== null ? durationOf(m.duration) : null);
  add('videoCodec', m.videoCodec);
  add('frameRate', m.frameRate !== null ? t('metadata.fps', { rate: frameRateOf(m.frameRate) }) : null);
  return (
    <Descriptions column={1} size="small" data-testid="metadata-fields">
      {lines.map(([key, label, value]) => (
        <Descriptions.Item key={key} label={label}>
          <span data-testid={`metadata-${key}`}>{value}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** The camera's wall clock, and its offset from UTC, or that the file did not say which zone. */
function CaptureTime({ capturedAt }: { capturedAt: string }) {
  const { t } = useTranslation();
  const { wallClock, offset } = captureTimeOf(capturedAt);
  return (
    <>
      {wallClock}{' '}
      <Typography.Text type="secondary">
        {offset ? `(UTC${offset})` : t('metadata.zoneUnknown')}
      </Typography.Text>
    </>
  );
}

/** XMP rating: stars, or "rejected" for -1. */
function Rating({ rating }: { rating: number }) {
  const { t } = useTranslation();
  if (rating < 0) return <>{t('metadata.rejected')}</>;
  const label = t('metadata.stars', { count: rating });
  return (
    <span role="img" aria-label={label} title={label}>
      <Rate disabled value={rating} style={{ fontSize: 14 }} aria-hidden />
    </span>
  );
}

function Label({ label }: { label: string }) {
  const { t } = useTranslation();
  const known = knownLabelOf(label);
  return known ? <Tag color={LABEL_COLOURS[known]}>{t(`metadata.labels.${known}`)}</Tag> : <Tag>{label}</Tag>;
}

/** A description may run to 1000 characters: three lines, the rest on asking. */
function LongText({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Paragraph
      style={{ margin: 0, whiteSpace: 'pre-line' }}
      ellipsis={{
        rows: 3,
        expandable: 'collapsible',
        symbol: (open) => t(open ? 'metadata.less' : 'metadata.more'),
      }}
    >
      {text}
    </Typography.Paragraph>
  );
}
