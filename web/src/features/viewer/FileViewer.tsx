import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { type Item, ItemType, type SimilarItem } from '@dam/contract';
import { App } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddToCollectionDialog } from '../collections/lazy';
import { ShareDialog } from '../share';
import { newOpening, useFileDetail } from './api';
import { InfoPanel } from './InfoPanel';
import { NewVersionUpload } from './NewVersionUpload';
import { PageBar } from './PageBar';
import { useLeaveGuard } from './useLeaveGuard';
import { useViewerKeys } from './useViewerKeys';
import { type StageView, ViewerStage } from './ViewerStage';
import { ViewerToolbar } from './ViewerToolbar';
import styles from './viewer.module.css';
import { neighbour, rotate, zoomByButton } from './zoom';

const START: Omit<StageView, 'page'> = { zoom: 1, angle: 0, offset: { x: 0, y: 0 } };

/**
 * SPEC §2 file detail, full screen: preview with zoom, rotation and drag; previous / next over the
 * current list (folders skipped); info panel with edit mode. ←, →, Esc do what users expect, and
 * only while no dialog, picker or list is open above the viewer (issue 39 item 2); leaving the edit
 * mode with changes not saved asks first.
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
  const overlay = useRef<HTMLDivElement>(null);
  const [id, setId] = useState(startId);
  /** Each file shown is one opening, its view counted once by the server (issue 39 item 3). */
  const [opening, setOpening] = useState(newOpening);
  /** What ← and → step through: the listing the viewer opened from, or a file's similar images. */
  const [list, setList] = useState<Array<Pick<Item, 'id' | 'type'>>>(items);
  const [view, setView] = useState<StageView>({ page: 1, ...START });
  const [panel, setPanel] = useState<'info' | 'edit' | null>('info');
  const versionInput = useRef<HTMLInputElement>(null);
  const [sharing, setSharing] = useState<'link' | 'collection' | null>(null);
  const detail = useFileDetail(id, opening);
  const guard = useLeaveGuard(panel === 'edit');

  const show = (next: number) => {
    setId(next);
    setOpening(newOpening());
    setView({ page: 1, ...START });
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
    guard.leave(() => {
      setPanel((p) => (p === 'edit' ? 'info' : p));
      show(next.id);
    });
  };
  const close = () => guard.leave(onClose);

  // A similar image opens as a search result does: in the viewer, its list the one stepped through.
  const openSimilar = (similar: SimilarItem[], next: number) => {
    guard.leave(() => {
      setPanel((p) => (p === 'edit' ? 'info' : p));
      setList(similar.map((item) => ({ id: item.id, type: ItemType.image })));
      show(next);
    });
  };

  useViewerKeys(overlay, { close, go });

  const file = detail.data;
  const pages = file?.pageUrls ?? [];
  const download = () => {
    if (file?.url) window.location.assign(file.url);
  };
  const turn = (change: Partial<StageView>) => setView((v) => ({ ...v, ...change }));

  return (
    <div
      ref={overlay}
      className={styles.overlay}
      role="dialog"
      aria-modal="true"
      tabIndex={-1}
      aria-label={file?.name ?? ''}
      data-testid="file-viewer"
    >
      <ViewerToolbar
        file={file}
        zoom={view.zoom}
        on={{
          zoom: (step) => turn({ zoom: zoomByButton(view.zoom, step) }),
          rotate: () => turn({ angle: rotate(view.angle) }),
          reset: () => turn(START),
          info: () => guard.leave(() => setPanel((p) => (p === 'info' ? null : 'info'))),
          download,
          share: () => setSharing('link'),
          collect: () => setSharing('collection'),
          newVersion: () => versionInput.current?.click(),
          edit: () => setPanel('edit'),
          close,
        }}
      />
      <div className={styles.body}>
        <div className={styles.stage}>
          <NavButton step={-1} onClick={() => go(-1)} />
          <ViewerStage
            file={file}
            pending={detail.isPending}
            failed={detail.isError}
            view={view}
            onZoom={(change) => setView((v) => ({ ...v, zoom: change(v.zoom) }))}
            onOffset={(offset) => turn({ offset })}
            onCheckAgain={() => void detail.refetch()}
            onDownload={download}
          />
          {file && pages.length > 0 && (
            <PageBar
              page={view.page}
              pageUrls={pages}
              pageCount={file.pageCount ?? pages.length}
              onPage={(to) => turn({ page: to, offset: { x: 0, y: 0 } })}
            />
          )}
          <NavButton step={1} onClick={() => go(1)} />
        </div>
        {panel && file && (
          <InfoPanel
            file={file}
            editing={panel === 'edit'}
            onEditDone={() => setPanel('info')}
            onCancelEdit={() => guard.leave(() => setPanel('info'))}
            changed={guard.changed}
            onMerged={setId}
            onOpenSimilar={openSimilar}
          />
        )}
      </div>
      <NewVersionUpload inputRef={versionInput} file={file} />
      {sharing === 'link' && file && (
        <ShareDialog items={[{ id: file.id, name: file.name }]} onClose={() => setSharing(null)} />
      )}
      {sharing === 'collection' && file && (
        <AddToCollectionDialog items={[{ id: file.id }]} onClose={() => setSharing(null)} />
      )}
    </div>
  );
}

/** The previous / next arrow beside the preview. */
function NavButton({ step, onClick }: { step: 1 | -1; onClick: () => void }) {
  const { t } = useTranslation();
  return step === -1 ? (
    <button
      type="button"
      className={`${styles.nav} ${styles.navLeft}`}
      onClick={onClick}
      aria-label={t('viewer.previous')}
      data-testid="viewer-prev"
    >
      <LeftOutlined />
    </button>
  ) : (
    <button
      type="button"
      className={`${styles.nav} ${styles.navRight}`}
      onClick={onClick}
      aria-label={t('viewer.next')}
      data-testid="viewer-next"
    >
      <RightOutlined />
    </button>
  );
}
