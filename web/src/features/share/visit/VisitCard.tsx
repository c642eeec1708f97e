import { FileOutlined, FolderFilled, VideoCameraOutlined } from '@ant-design/icons';
import { ItemType, type SharedItem } from '@dam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../ui/format';
import ui from './visit.module.css';

/** A shared file or folder: its picture (whole, not cropped), name, kind and size, a checkbox. */
export function VisitCard({
  item,
  checked,
  onCheck,
  onOpen,
}: {
  item: SharedItem;
  checked: boolean;
  onCheck: () => void;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const icon =
    item.type === ItemType.folder ? (
      <FolderFilled style={{ color: '#d99a0b' }} />
    ) : item.type === ItemType.video ? (
      <VideoCameraOutlined style={{ color: '#7c3aed' }} />
    ) : (
      <FileOutlined style={{ color: '#64748b' }} />
    );
  return (
    <li className={`${ui.card} ${checked ? ui.selected : ''}`} data-testid="visit-item" data-name={item.name}>
      <button type="button" className={ui.thumb} onClick={onOpen} aria-label={item.name}>
        {item.compactUrl && !broken ? (
          <img src={item.compactUrl} alt="" loading="lazy" onError={() => setBroken(true)} />
        ) : (
          <span className={ui.typeIcon}>{icon}</span>
        )}
      </button>
      <label className={ui.check}>
        <input
          type="checkbox"
          checked={checked}
          onChange={onCheck}
          aria-label={t('visit.select', { name: item.name })}
        />
      </label>
      <div className={ui.meta}>
        <span className={ui.name} title={item.name}>
          {item.name}
        </span>
        <span className={ui.small}>
          {item.type === ItemType.folder
            ? t('visit.folder')
            : `${(item.fileFormat ?? '').toUpperCase()} ${formatSize(item.fileSize)}`}
        </span>
      </div>
    </li>
  );
}
