import { type FileDetail, ItemType, PreviewStatus } from '@dam/contract';
import { Button, Result, Spin } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './viewer.module.css';
import { zoomByWheel } from './zoom';

export interface StageView {
  page: number;
  zoom: number;
  angle: number;
  offset: { x: number; y: number };
}

/** What the viewer shows of a file: its picture (zoomed, turned, dragged), video, pages or why not. */
export function ViewerStage({
  file,
  pending,
  failed,
  view,
  onZoom,
  onOffset,
  onCheckAgain,
  onDownload,
}: {
  file: FileDetail | undefined;
  pending: boolean;
  failed: boolean;
  view: StageView;
  onZoom: (change: (zoom: number) => number) => void;
  onOffset: (offset: { x: number; y: number }) => void;
  onCheckAgain: () => void;
  onDownload: () => void;
}) {
  const { t } = useTranslation();
  const drag = useRef<{ x: number; y: number } | null>(null);
  const { page, zoom, angle, offset } = view;
  if (pending) return <Spin size="large" />;
  if (failed || !file) return <Result status="warning" title={t('common.loadFailed')} />;
  const format = file.fileFormat?.split(',')[0] ?? '';
  const isVideo = file.type === ItemType.video;
  const pages = file.pageUrls;
  if (file.previewStatus === PreviewStatus.damaged)
    return <Result status="warning" title={t('viewer.damaged')} />;
  if (isVideo && file.playUrl)
    return (
      // biome-ignore lint/a11y/useMediaCaption: design files carry no captions
      <video
        src={file.playUrl}
        poster={file.previewUrl ?? file.compactUrl ?? undefined}
        controls
        preload="metadata"
        className={styles.video}
        data-testid="viewer-video"
      />
    );
  if (isVideo && file.playStatus === PreviewStatus.pending)
    // Checked on request, not polled.
    return (
      <Result
        icon={<Spin size="large" />}
        title={t('viewer.videoPending')}
        extra={<Button onClick={onCheckAgain}>{t('viewer.checkAgain')}</Button>}
        data-testid="viewer-video-pending"
      />
    );
  if (isVideo)
    return (
      <Result
        status="info"
        title={t('viewer.videoUnplayable')}
        extra={file.url ? <Button onClick={onDownload}>{t('download.action')}</Button> : null}
      />
    );
  if (!file.previewUrl && file.previewStatus === PreviewStatus.pending)
    return (
      <Spin tip={t('viewer.previewPending')}>
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    );
  if (!file.previewUrl && pages.length === 0) return <Result status="info" title={t('viewer.noPreview')} />;
  if (format === 'pdf' && pages.length === 0 && file.previewUrl && !file.previewUrl.includes('.preview.jpg'))
    return <iframe title={file.name} src={file.previewUrl} className={styles.document} />;
  return (
    <img
      src={pages[page - 1] ?? (file.previewUrl as string)}
      alt={pages.length > 0 ? t('viewer.pageAlt', { name: file.name, page }) : file.name}
      draggable={false}
      data-testid="viewer-image"
      data-zoom={zoom}
      data-angle={angle}
      className={styles.image}
      style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom}) rotate(${angle}deg)` }}
      onWheel={(event) => onZoom((z) => zoomByWheel(z, event.deltaY))}
      onPointerDown={(event) => {
        drag.current = { x: event.clientX - offset.x, y: event.clientY - offset.y };
        (event.target as HTMLElement).setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) =>
        drag.current && onOffset({ x: event.clientX - drag.current.x, y: event.clientY - drag.current.y })
      }
      onPointerUp={() => {
        drag.current = null;
      }}
    />
  );
}
