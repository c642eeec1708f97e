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
  METADATA_FIELDS,
  type MetadataField,
  orientationShown,
  ratingShown,
} from './format';
import { Keywords } from './Keywords';
import styles from './metadata.module.css';
import { SearchFor } from './SearchFor';

/**
 * One record's metadata, read only, in METADATA_FIELDS' order. Fields the file lacks are left out,
 * as are "upright" and "not rated".
 */
export function MetadataFields({ metadata: m }: { metadata: EmbeddedMetadata }) {
  const { t } = useTranslation();
  const values: Record<MetadataField, ReactNode> = {
    title: m.title,
    creator: m.creator && <SearchFor field="creator" value={m.creator} />,
    copyright: m.copyright,
    camera: m.camera && <SearchFor field="camera" value={m.camera} />,
    lens: m.lens,
    capturedAt: m.capturedAt && <CaptureTime capturedAt={m.capturedAt} />,
    usageTerms: m.usageTerms,
    description: m.description && <LongText text={m.description} />,
    keywords: m.keywords.length > 0 && <Keywords keywords={m.keywords} />,
    rating: m.rating !== null && ratingShown(m.rating) && <Rating rating={m.rating} />,
    label: m.label && <Label label={m.label} />,
    // The numbers only, no map link: a click would tell a map service where the picture was taken.
    gps: m.gps && (
      <Typography.Text copyable={{ text: coordinatesOf(m.gps) }}>{coordinatesOf(m.gps)}</Typography.Text>
    ),
    orientation: orientationShown(m.orientation) && t(`metadata.orientation.o${m.orientation}`),
    colour: [m.iccProfile, m.colourSpace].filter(Boolean).join(' · '),
    layers: m.layerCount,
    pages: m.pageCount,
    duration: m.duration !== null && durationOf(m.duration),
    videoCodec: m.videoCodec,
    frameRate: m.frameRate !== null && t('metadata.fps', { rate: frameRateOf(m.frameRate) }),
  };
  const shown = METADATA_FIELDS.filter((key) => {
    const value = values[key];
    return value !== null && value !== false && value !== '';
  });
  return (
    <Descriptions column={1} size="small" data-testid="metadata-fields">
      {shown.map((key) => (
        <Descriptions.Item key={key} label={t(`metadata.field.${key}`)}>
          <span data-testid={`metadata-${key}`}>{values[key]}</span>
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

/**
 * XMP rating: stars, or "rejected" for -1. The stars (antd Rate, radios even when read only) are
 * hidden from screen readers, which read the words instead: radios inside a labelled image are
 * nested controls (axe).
 */
function Rating({ rating }: { rating: number }) {
  const { t } = useTranslation();
  if (rating < 0) return <>{t('metadata.rejected')}</>;
  const label = t('metadata.stars', { count: rating });
  return (
    <span title={label}>
      <span aria-hidden="true">
        <Rate disabled value={rating} style={{ fontSize: 14 }} />
      </span>
      <span className={styles.srOnly}>{label}</span>
    </span>
  );
}

function Label({ label }: { label: string }) {
  const { t } = useTranslation();
  const known = knownLabelOf(label);
  return known ? <Tag color={LABEL_COLOURS[known]}>{t(`metadata.labels.${known}`)}</Tag> : <Tag>{label}</Tag>;
}

/**
 * A description may run to 1000 characters: three lines, the rest on asking (antd's own "expand" and
 * "collapse", in the reader's language: its button is named by them whatever it shows).
 */
function LongText({ text }: { text: string }) {
  return (
    <Typography.Paragraph
      style={{ margin: 0, whiteSpace: 'pre-line' }}
      ellipsis={{ rows: 3, expandable: 'collapsible' }}
    >
      {text}
    </Typography.Paragraph>
  );
}
