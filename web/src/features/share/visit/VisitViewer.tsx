import { CloseOutlined, DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { SharedFile, SharedItem } from '@dam/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ViewerStage } from './ViewerStage';
import v from './viewer.module.css';
import ui from './visit.module.css';
import { failureText, sharedFile } from './visitApi';

/** Keys a focused control, an open menu or the player keeps for itself. */
const keptBy = (target: EventTarget | null) =>
  target instanceof Element &&
  target.closest('input, textarea, select, video, audio, [role="menu"], [aria-expanded="true"]') !== null;

/**
 * A shared file full size, under the page's top bar (issue 39 item 6): its name, its place in the
 * folder, previous / next (buttons, ← →), download, close (button, Esc). Esc closes only the top
 * layer: an open language menu first. Loaded when a visitor first opens a file.
 */
export default function VisitViewer({
  code,
  files,
  id,
  onShow,
  onDownload,
  onClose,
}: {
  code: string;
  /** The folder's files, in its order: what previous and next step through. */
  files: SharedItem[];
  id: number;
  onShow: (id: number) => void;
  onDownload: (id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [loaded, setLoaded] = useState<{ id: number; file?: SharedFile; error?: string } | null>(null);
  const [edge, setEdge] = useState('');
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const index = files.findIndex((item) => item.id === id);
  const item = files[index];

  useEffect(() => {
    let live = true;
    setEdge('');
    sharedFile(code, id).then(
      (file) => live && setLoaded({ id, file }),
      (error: unknown) => live && setLoaded({ id, error: failureText(error, t('common.loadFailed')) }),
    );
    return () => {
      live = false;
    };
  }, [code, id, t]);

  // Focus moves into the viewer and back to what opened it; the page behind does not scroll.
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, []);

  const go = (step: 1 | -1) => {
    const next = files[index + step];
    if (next) onShow(next.id);
    else setEdge(t(step === 1 ? 'visit.isLast' : 'visit.isFirst'));
  };

  useEffect(() => {
    // Seen before the page's own handlers (capture), while a menu that Esc closes is still open.
    const onKey = (event: KeyboardEvent) => {
      if (keptBy(event.target)) return;
      // An open menu (the language switch's) is the top layer: Esc is its own.
      if (event.key === 'Escape' && !document.querySelector('[role="menu"]')) onClose();
      else if (event.key === 'ArrowLeft') go(-1);
      else if (event.key === 'ArrowRight') go(1);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  const current = loaded?.id === id ? loaded : null;
  const name = item?.name ?? current?.file?.name ?? '';
  const button = (label: string, icon: React.ReactNode, onClick: () => void, testId: string) => (
    <button
      type="button"
      className={v.iconButton}
      onClick={onClick}
      aria-label={label}
      title={label}
      data-testid={testId}
    >
      {icon}
    </button>
  );

  return (
    <div className={v.overlay} role="dialog" aria-labelledby={titleId} data-testid="visit-viewer">
      <div className={v.bar}>
        <h2 id={titleId} className={v.title} title={name} data-testid="visit-viewer-name">
          {name}
        </h2>
        {index >= 0 && (
          <span className={v.position} data-testid="visit-viewer-position">
            {t('visit.position', { index: index + 1, count: files.length })}
          </span>
        )}
        <div className={v.tools}>
          {item?.authList.includes('download') &&
            button(t('visit.download'), <DownloadOutlined />, () => onDownload(id), 'visit-viewer-download')}
          <button
            ref={closeButton}
            type="button"
            className={v.iconButton}
            onClick={onClose}
            aria-label={t('common.close')}
            title={t('common.close')}
            data-testid="visit-viewer-close"
          >
            <CloseOutlined />
          </button>
        </div>
      </div>
      <div className={v.stage}>
        <span className={v.nav}>
          {button(t('visit.previous'), <LeftOutlined />, () => go(-1), 'visit-viewer-prev')}
        </span>
        <div className={v.content}>
          {current?.file ? (
            <ViewerStage file={current.file} />
          ) : current?.error ? (
            <p className={v.note} role="alert">
              {current.error}
            </p>
          ) : (
            <span className={ui.spinner} role="progressbar" aria-label={t('common.loading')} />
          )}
        </div>
        <span className={v.nav}>
          {button(t('visit.next'), <RightOutlined />, () => go(1), 'visit-viewer-next')}
        </span>
        <p className={v.edge} role="status">
          {edge}
        </p>
      </div>
    </div>
  );
}
