import { FileImageOutlined } from '@ant-design/icons';
import type { SimilarItem } from '@dam/contract';
import { Button, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './UploadPanel.module.css';

/**
 * Under a finished upload in the panel (issue 17, plan §5.2): the files already in the archive it
 * looks like, as thumbnails naming each file and its folder, and a way to put the note away.
 */
export default function SimilarAfterNote({
  items,
  onDismiss,
}: {
  items: SimilarItem[];
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className={styles.similar} data-testid="upload-panel-similar">
      <Typography.Text type="warning" className={styles.state}>
        {t('similar.after.similarTo')}
      </Typography.Text>
      {items.map((item) => (
        <Tooltip key={item.id} title={`${item.path.replace(/\/+$/, '')}/${item.name}`}>
          {item.compactUrl ? (
            <img
              src={item.compactUrl}
              alt={item.name}
              className={styles.similarThumb}
              data-testid="upload-panel-similar-item"
              data-id={item.id}
            />
          ) : (
            <span className={styles.similarThumb} data-testid="upload-panel-similar-item" data-id={item.id}>
              <FileImageOutlined />
            </span>
          )}
        </Tooltip>
      ))}
      <Button type="link" size="small" onClick={onDismiss} data-testid="upload-panel-similar-dismiss">
        {t('similar.after.dismiss')}
      </Button>
    </div>
  );
}
