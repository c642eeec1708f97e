import { ItemType, PreviewStatus, type SharedFile } from '@dam/contract';
import { useTranslation } from 'react-i18next';
import { PdfPages } from './PdfPages';
import v from './viewer.module.css';

/** What the viewer shows of a file, as the signed-in viewer does: video, pages, picture or a note. */
export function ViewerStage({ file }: { file: SharedFile }) {
  const { t } = useTranslation();
  const note = (text: string) => <p className={v.note}>{text}</p>;
  const isPdf = file.fileFormat?.split(',')[0] === 'pdf';
  if (file.type === ItemType.video) {
    if (file.playUrl)
      return (
        // biome-ignore lint/a11y/useMediaCaption: design files carry no captions
        <video
          key={file.id}
          src={file.playUrl}
          poster={file.previewUrl ?? file.compactUrl ?? undefined}
          controls
          preload="metadata"
          className={`${v.media} ${v.video}`}
          data-testid="visit-viewer-video"
        />
      );
    return note(
      t(file.playStatus === PreviewStatus.pending ? 'visit.videoPending' : 'visit.videoUnplayable'),
    );
  }
  if (file.pageUrls.length > 0) return <PdfPages key={file.id} file={file} />;
  if (isPdf && file.previewUrl && !file.previewUrl.includes('.preview.jpg'))
    return <iframe title={file.name} src={file.previewUrl} className={v.document} />;
  if (file.previewUrl)
    return <img src={file.previewUrl} alt={file.name} className={v.media} data-testid="visit-viewer-image" />;
  return note(t(file.previewStatus === PreviewStatus.pending ? 'visit.previewPending' : 'visit.noPreview'));
}
