import { FileOutlined, FolderFilled } from '@ant-design/icons';
import { type Item, ItemType } from '@dam/contract';
import { Checkbox, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const FOLDER_FORMATS = ['all', 'jpg', 'png', 'psd', 'avi', 'mp4'] as const;

interface DownloadItemListProps {
  items: Item[];
  /** The formats chosen per item id. */
  chosen: Record<number, string[]>;
  onChoose: (itemId: number, formats: string[]) => void;
}

/** Each item to download with its formats to tick: a file's own, or a folder's all/JPG/PNG/PSD/AVI/MP4. */
export function DownloadItemList({ items, chosen, onChoose }: DownloadItemListProps) {
  const { t } = useTranslation();
  return (
    <div style={{ maxHeight: 300, overflow: 'auto', margin: '8px 0' }}>
      {items.map((item) => (
        <div
          key={item.id}
          style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}
          data-testid="download-item"
        >
          <Space>
            {item.type === ItemType.folder ? <FolderFilled style={{ color: '#f5b335' }} /> : <FileOutlined />}
            <Typography.Text strong>{item.name}</Typography.Text>
          </Space>
          <div style={{ paddingLeft: 22, marginTop: 4 }}>
            <Checkbox.Group
              value={chosen[item.id] ?? []}
              onChange={(values) => onChoose(item.id, values as string[])}
              options={
                item.type === ItemType.folder
                  ? FOLDER_FORMATS.map((f) => ({
                      value: f,
                      label: f === 'all' ? t('download.all') : f.toUpperCase(),
                    }))
                  : (item.fileFormat?.split(',') ?? []).map((f) => ({
                      value: f,
                      label: `${f.toUpperCase()}`,
                    }))
              }
            />
          </div>
        </div>
      ))}
    </div>
  );
}
