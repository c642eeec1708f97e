import {
  CloseOutlined,
  CloudUploadOutlined,
  DownloadOutlined,
  EditOutlined,
  InfoCircleOutlined,
  LeftOutlined,
  RedoOutlined,
  RightOutlined,
  ShareAltOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { type Item, ItemType, PreviewStatus, type SimilarItem } from '@dam/contract';
import { App, Button, Result, Spin, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickedFile } from '../../upload/pickFiles';
import { pickFiles } from '../../upload/pickFiles';
import { ShareDialog } from '../share/ShareDialog';
import { BatchUploadDialog } from '../upload/BatchUploadDialog';
import { problemText } from '../upload/problemText';
import { useFileDetail } from './api';
import { InfoPanel } from './InfoPanel';
import { PageBar } from './PageBar';
import styles from './viewer.module.css';
import { neighbour, rotate, zoomByButton, zoomByWheel } from './zoom';

/**
 * SPEC §2 file detail, full screen: preview with zoom, rotation and drag; previous / next over the
 * current list (folders skipped); info panel with edit mode. ←, →, Esc do what users expect.
 */
export function FileViewer({
  items,
  startId,
  onClose,
}: {
  /** What ← and → step through at first (only ids and types are needed). */
  items: Array<Pick<Item, 'id' | 'type'>>;
  startId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [id, setId] = useState(startId);
  /** What ← and → step through: the listing the viewer opened from, or a file's similar images. */
  const [list, setList] = useState<Array<Pick<Item, 'id' | 'type'>>>(items);
  const [zoom, setZoom] = useState(1);
  const [angle, setAngle] = useState(0);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const [panel, setPanel] = useState<'info' | 'edit' | null>('info');
  const drag = useRef<{ x: number; y: number } | null>(null);
  const versionInput = useRef<HTMLInputElement>(null);
  const [newVersion, setNewVersion] = useState<PickedFile[] | null>(null);
  const [sharing, setSharing] = useState(false);
  const detail = useFileDetail(id);
  const [page, setPage] = useState(1);

  const show = (next: number) => {
    setId(next);
    setPage(1);
    setZoom(1);
    setAngle(0);
    setOffset({ x: 0, y: 0 });
  };

  const go = (step: 1 | -1) => {
    const next = neighbour(list, id, step);
    if (!next) {
      // One message that each press replaces, not a stack of the same words.
      void message.info({
        key: 'viewer-edge',
        content: step === 1 ? t('viewer.isLast') : t('viewer.isFirst'),
      });
      return;
    }
    show(next.id);
  };

  // A similar image opens as a search result does: in the viewer, its list the one stepped through.
  const openSimilar = (similar: SimilarItem[], next: number) => {
    setList(similar.map((item) => ({ id: item.id, type: ItemType.image })));
    show(next);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.target as HTMLElement)?.closest('input, textarea, .ant-picker-dropdown')) return;
      // Keys belong to a dialog open above the viewer (the new-version upload, sharing).
      if (newVersion || sharing) return;
      if (event.key === 'Escape') onClose();
      if (event.key === 'ArrowLeft') go(-1);
      if (event.key === 'ArrowRight') go(1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const file = detail.data;
  const format = file?.fileFormat?.split(',')[0] ?? '';
  const isVideo = file?.type === ItemType.video;
  const isPdf = format === 'pdf';
  const pages = file?.pageUrls ?? [];
  const download = () => {
    if (file?.url) window.location.assign(file.url);
  };

  let stage: React.ReactNode;
  if (detail.isPending) stage = <Spin size="large" />;
  else if (detail.isError || !file) stage = <Result status="warning" title={t('common.loadFailed')} />;
  else if (file.previewStatus === PreviewStatus.damaged)
    stage = <Result status="warning" title={t('viewer.damaged')} />;
  else if (isVideo && file.playUrl)
    stage = (
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
  else if (isVideo && file.playStatus === PreviewStatus.pending)
    // Checked on request, not polled: every detail call counts as a view of the file.
    stage = (
      <Result
        icon={<Spin size="large" />}
        title={t('viewer.videoPending')}
        extra={<Button onClick={() => void detail.refetch()}>{t('viewer.checkAgain')}</Button>}
        data-testid="viewer-video-pending"
      />
    );
  else if (isVideo)
    stage = (
      <Result
        status="info"
        title={t('viewer.videoUnplayable')}
        extra={file.url ? <Button onClick={download}>{t('download.action')}</Button> : null}
      />
    );
  else if (!file.previewUrl && file.previewStatus === PreviewStatus.pending)
    stage = (
      <Spin tip={t('viewer.previewPending')}>
        <div style={{ width: 200, height: 80 }} />
      </Spin>
    );
  else if (!file.previewUrl && pages.length === 0)
    stage = <Result status="info" title={t('viewer.noPreview')} />;
  else if (isPdf && pages.length === 0 && file.previewUrl && !file.previewUrl.includes('.preview.jpg'))
    stage = <iframe title={file.name} src={file.previewUrl} className={styles.document} />;
  else
    stage = (
      <img
        src={pages[page - 1] ?? (file.previewUrl as string)}
        alt={pages.length > 0 ? t('viewer.pageAlt', { name: file.name, page }) : file.name}
        draggable={false}
        data-testid="viewer-image"
        data-zoom={zoom}
        data-angle={angle}
        className={styles.image}
        style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom}) rotate(${angle}deg)` }}
        onWheel={(event) => setZoom((z) => zoomByWheel(z, event.deltaY))}
        onPointerDown={(event) => {
          drag.current = { x: event.clientX - offset.x, y: event.clientY - offset.y };
          (event.target as HTMLElement).setPointerCapture(event.pointerId);
        }}
        onPointerMove={(event) =>
          drag.current && setOffset({ x: event.clientX - drag.current.x, y: event.clientY - drag.current.y })
        }
        onPointerUp={() => {
          drag.current = null;
        }}
      />
    );

  return (
    <div className={styles.overlay} role="dialog" aria-label={file?.name ?? ''} data-testid="file-viewer">
      <header className={styles.bar}>
        <span className={styles.title} data-testid="viewer-title">
          {file?.name ?? ''}
        </span>
        <div className={styles.tools}>
          <Tooltip title={t('viewer.zoomOut')}>
            <Button
              aria-label={t('viewer.zoomOut')}
              type="text"
              icon={<ZoomOutOutlined />}
              onClick={() => setZoom((z) => zoomByButton(z, -1))}
              data-testid="zoom-out"
            />
          </Tooltip>
          <span className={styles.zoom}>{Math.round(zoom * 100)}%</span>
          <Tooltip title={t('viewer.zoomIn')}>
            <Button
              aria-label={t('viewer.zoomIn')}
              type="text"
              icon={<ZoomInOutlined />}
              onClick={() => setZoom((z) => zoomByButton(z, 1))}
              data-testid="zoom-in"
            />
          </Tooltip>
          <Tooltip title={t('viewer.rotate')}>
            <Button
              aria-label={t('viewer.rotate')}
              type="text"
              icon={<RedoOutlined />}
              onClick={() => setAngle(rotate)}
              data-testid="rotate"
            />
          </Tooltip>
          <Tooltip title={t('viewer.reset')}>
            <Button
              aria-label={t('viewer.reset')}
              type="text"
              icon={<UndoOutlined />}
              onClick={() => {
                setZoom(1);
                setAngle(0);
                setOffset({ x: 0, y: 0 });
              }}
            />
          </Tooltip>
          <span className={styles.divider} />
          <Tooltip title={t('viewer.info')}>
            <Button
              aria-label={t('viewer.info')}
              type="text"
              icon={<InfoCircleOutlined />}
              onClick={() => setPanel((p) => (p === 'info' ? null : 'info'))}
            />
          </Tooltip>
          {file?.url && (
            <Tooltip title={t('viewer.download')}>
              <Button
                aria-label={t('viewer.download')}
                type="text"
                icon={<DownloadOutlined />}
                onClick={download}
                data-testid="viewer-download"
              />
            </Tooltip>
          )}
          {file?.authList.includes('share') && (
            <Tooltip title={t('share.action')}>
              <Button
                aria-label={t('share.action')}
                type="text"
                icon={<ShareAltOutlined />}
                onClick={() => setSharing(true)}
                data-testid="viewer-share"
              />
            </Tooltip>
          )}
          {file?.authList.includes('upload') && (
            <Tooltip title={t('viewer.newVersion')}>
              <Button
                aria-label={t('viewer.newVersion')}
                type="text"
                icon={<CloudUploadOutlined />}
                onClick={() => versionInput.current?.click()}
                data-testid="viewer-new-version"
              />
            </Tooltip>
          )}
          {file?.authList.includes('edit') && (
            <Tooltip title={t('viewer.edit')}>
              <Button
                aria-label={t('viewer.edit')}
                type="text"
                icon={<EditOutlined />}
                onClick={() => setPanel('edit')}
                data-testid="viewer-edit"
              />
            </Tooltip>
          )}
          <Tooltip title={t('viewer.close')}>
            <Button
              aria-label={t('viewer.close')}
              type="text"
              icon={<CloseOutlined />}
              onClick={onClose}
              data-testid="viewer-close"
            />
          </Tooltip>
        </div>
      </header>
      <div className={styles.body}>
        <div className={styles.stage}>
          <button
            type="button"
            className={`${styles.nav} ${styles.navLeft}`}
            onClick={() => go(-1)}
            aria-label={t('viewer.previous')}
            data-testid="viewer-prev"
          >
            <LeftOutlined />
          </button>
          {stage}
          {file && pages.length > 0 && (
            <PageBar
              page={page}
              pageUrls={pages}
              pageCount={file.pageCount ?? pages.length}
              onPage={(to) => {
                setPage(to);
                setOffset({ x: 0, y: 0 });
              }}
            />
          )}
          <button
            type="button"
            className={`${styles.nav} ${styles.navRight}`}
            onClick={() => go(1)}
            aria-label={t('viewer.next')}
            data-testid="viewer-next"
          >
            <RightOutlined />
          </button>
        </div>
        {panel && file && (
          <InfoPanel
            file={file}
            editing={panel === 'edit'}
            onEditDone={() => setPanel('info')}
            onMerged={setId}
            onOpenSimilar={openSimilar}
          />
        )}
      </div>
      <input
        ref={versionInput}
        type="file"
        multiple
        hidden
        data-testid="new-version-input"
        onChange={(e) => {
          const result = pickFiles([...(e.target.files ?? [])]);
          if ('problem' in result) void message.error(problemText(t, result.problem));
          else if (result.files.length > 0) setNewVersion(result.files);
          e.target.value = '';
        }}
      />
      {newVersion && file && (
        <BatchUploadDialog
          files={newVersion}
          target={{ id: file.folderId ?? 'all', path: file.path }}
          fixedName={file.name}
          {...(file.artNum ? { defaultArtNum: file.artNum } : {})}
          onClose={() => setNewVersion(null)}
        />
      )}
      {sharing && file && (
        <ShareDialog items={[{ id: file.id, name: file.name }]} onClose={() => setSharing(false)} />
      )}
    </div>
  );
}
