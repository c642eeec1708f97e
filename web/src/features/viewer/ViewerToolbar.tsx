import {
  AppstoreAddOutlined,
  CloseOutlined,
  CloudUploadOutlined,
  DownloadOutlined,
  EditOutlined,
  InfoCircleOutlined,
  RedoOutlined,
  ShareAltOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import type { FileDetail } from '@dam/contract';
import { Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './viewer.module.css';

function Tool({
  title,
  icon,
  onClick,
  testId,
}: {
  title: string;
  icon: ReactNode;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <Tooltip title={title}>
      <Button aria-label={title} type="text" icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
}

/** The viewer's top bar: the file's name, zoom and rotation, then what may be done with the file. */
export function ViewerToolbar({
  file,
  zoom,
  on,
}: {
  file: FileDetail | undefined;
  zoom: number;
  on: {
    zoom: (step: 1 | -1) => void;
    rotate: () => void;
    reset: () => void;
    info: () => void;
    download: () => void;
    share: () => void;
    collect: () => void;
    newVersion: () => void;
    edit: () => void;
    close: () => void;
  };
}) {
  const { t } = useTranslation();
  const may = (action: 'share' | 'upload' | 'edit') => file?.authList.includes(action) ?? false;
  return (
    <header className={styles.bar}>
      <span className={styles.title} data-testid="viewer-title">
        {file?.name ?? ''}
      </span>
      <div className={styles.tools}>
        <Tool
          title={t('viewer.zoomOut')}
          icon={<ZoomOutOutlined />}
          onClick={() => on.zoom(-1)}
          testId="zoom-out"
        />
        <span className={styles.zoom}>{Math.round(zoom * 100)}%</span>
        <Tool
          title={t('viewer.zoomIn')}
          icon={<ZoomInOutlined />}
          onClick={() => on.zoom(1)}
          testId="zoom-in"
        />
        <Tool title={t('viewer.rotate')} icon={<RedoOutlined />} onClick={on.rotate} testId="rotate" />
        <Tool title={t('viewer.reset')} icon={<UndoOutlined />} onClick={on.reset} />
        <span className={styles.divider} />
        <Tool title={t('viewer.info')} icon={<InfoCircleOutlined />} onClick={on.info} />
        {file?.url && (
          <Tool
            title={t('viewer.download')}
            icon={<DownloadOutlined />}
            onClick={on.download}
            testId="viewer-download"
          />
        )}
        {may('share') && (
          <Tool
            title={t('share.action')}
            icon={<ShareAltOutlined />}
            onClick={on.share}
            testId="viewer-share"
          />
        )}
        {file && (
          <Tool
            title={t('collections.add')}
            icon={<AppstoreAddOutlined />}
            onClick={on.collect}
            testId="viewer-collect"
          />
        )}
        {may('upload') && (
          <Tool
            title={t('viewer.newVersion')}
            icon={<CloudUploadOutlined />}
            onClick={on.newVersion}
            testId="viewer-new-version"
          />
        )}
        {may('edit') && (
          <Tool title={t('viewer.edit')} icon={<EditOutlined />} onClick={on.edit} testId="viewer-edit" />
        )}
        <Tool title={t('viewer.close')} icon={<CloseOutlined />} onClick={on.close} testId="viewer-close" />
      </div>
    </header>
  );
}
