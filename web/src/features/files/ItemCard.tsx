import {
  EllipsisOutlined,
  FileImageOutlined,
  FileOutlined,
  FolderFilled,
  LockOutlined,
  StarFilled,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { type Item, ItemType } from '@dam/contract';
import { Checkbox, Dropdown, type MenuProps, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../ui/format';
import { ReviewStateTag } from '../../ui/ReviewStateTag';
import styles from './files.module.css';

export type ItemAction = 'open' | 'edit' | 'move' | 'delete' | 'favourite' | 'download' | 'share';

const TYPE_ICONS: Record<number, React.ReactNode> = {
  1: <FolderFilled style={{ color: '#f5b335' }} />,
  2: <FileImageOutlined style={{ color: '#3b82f6' }} />,
  3: <VideoCameraOutlined style={{ color: '#8b5cf6' }} />,
  4: <FileOutlined style={{ color: '#64748b' }} />,
};

interface Props {
  item: Item;
  size: number;
  waterfall: boolean;
  selected: boolean;
  onSelect: (item: Item, additive: boolean) => void;
  onAction: (action: ItemAction, item: Item) => void;
  /** Load the thumbnail at once (the virtualised grid) rather than when scrolled near. */
  eager?: boolean;
}

/** How long the pointer rests on a card's name before its full name shows. */
const NAME_TIP_DELAY_MS = 600;

// A folder page draws a few dozen cards at once, and an Ant Design Tooltip or Dropdown on each
// (trigger, portal, motion, resize observers) was a third of the first listing's render (issue 12
// goal 4). Both are mounted on a card only when first used, and stay mounted afterwards.

/**
 * The card's name, which opens it; its full name shows in a tooltip once the pointer rests on it.
 * The element listening for the pointer and the click is never replaced: mounting the Tooltip
 * swaps only the text inside it, so a leave or a click across that moment is not lost.
 */
function CardName({ name, onOpen }: { name: string; onOpen: () => void }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const text = <span className={styles.name}>{name}</span>;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a mouse target only; the thumbnail is the button of the same name
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users open it with that button
    <span
      className={styles.nameCell}
      onClick={onOpen}
      onMouseEnter={() => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          setUsed(true);
          setOpen(true);
        }, NAME_TIP_DELAY_MS);
      }}
      onMouseLeave={() => {
        clearTimeout(timer.current);
        setOpen(false);
      }}
      data-testid="item-name"
    >
      {used ? (
        <Tooltip title={name} open={open}>
          {text}
        </Tooltip>
      ) : (
        text
      )}
    </span>
  );
}

/** The card's "…" button and its menu of actions. */
function CardMenu({ items, onClick }: { items: MenuProps['items']; onClick: (key: string) => void }) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The Dropdown's button replaces the bare one: a keyboard user's focus moves to it.
  const hadFocus = useRef(false);
  useEffect(() => {
    if (used && hadFocus.current) button.current?.focus();
    hadFocus.current = false;
  }, [used]);
  const trigger = (
    <button
      ref={button}
      type="button"
      className={styles.more}
      aria-label="…"
      data-testid="item-menu"
      // The first click mounts the menu, open; from then on the Dropdown handles its button.
      onClick={
        used
          ? undefined
          : (event) => {
              hadFocus.current = document.activeElement === event.currentTarget;
              setUsed(true);
              setOpen(true);
            }
      }
    >
      <EllipsisOutlined />
    </button>
  );
  return used ? (
    <Dropdown
      menu={{ items, onClick: ({ key }) => onClick(key) }}
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
    >
      {trigger}
    </Dropdown>
  ) : (
    trigger
  );
}

/** One folder or file in a listing: thumbnail (or type icon), name, formats, state. */
export function ItemCard({ item, size, waterfall, selected, onSelect, onAction, eager = false }: Props) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const canEdit = item.authList.includes('edit');
  const menu: MenuProps['items'] = [
    ...(item.type === ItemType.folder && canEdit ? [{ key: 'edit', label: t('files.editFolder') }] : []),
    ...(canEdit ? [{ key: 'move', label: t('files.move') }] : []),
    { key: 'favourite', label: item.collected ? t('files.unfavourite') : t('files.favourite') },
    ...(item.type === ItemType.folder || item.authList.includes('download')
      ? [{ key: 'download', label: t('download.action') }]
      : []),
    ...(item.authList.includes('share') ? [{ key: 'share', label: t('share.action') }] : []),
    ...(canEdit
      ? [{ type: 'divider' as const }, { key: 'delete', label: t('files.delete'), danger: true }]
      : []),
  ];
  const showImage = item.compactUrl && !broken;
  return (
    <div
      className={`${styles.card} ${selected ? styles.cardSelected : ''}`}
      style={{ width: size }}
      data-testid="item-card"
      data-name={item.name}
    >
      <button
        type="button"
        className={styles.thumb}
        style={waterfall && showImage ? undefined : { height: size * 0.75 }}
        onClick={(event) => (event.metaKey || event.ctrlKey ? onSelect(item, true) : onAction('open', item))}
        aria-label={item.name}
      >
        {showImage ? (
          // Eager in the virtualised grid, whose cards are the visible rows and a few beyond: a
          // lazy image waits for a layout pass and an intersection check before it is even asked
          // for (issue 12 goal 4). Lazy where every card of a list is in the page.
          <img
            src={item.compactUrl as string}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            className={waterfall ? styles.thumbNatural : styles.thumbFit}
            onError={() => setBroken(true)}
          />
        ) : (
          <span className={styles.typeIcon}>{TYPE_ICONS[item.type] ?? TYPE_ICONS[4]}</span>
        )}
      </button>
      <div className={`${styles.check} ${selected ? styles.checkOn : ''}`}>
        <Checkbox checked={selected} onChange={() => onSelect(item, true)} aria-label={item.name} />
      </div>
      {item.collected && <StarFilled className={styles.star} />}
      <div className={styles.meta}>
        <div className={styles.nameRow}>
          <CardName name={item.name} onOpen={() => onAction('open', item)} />
          <CardMenu items={menu} onClick={(key) => onAction(key as ItemAction, item)} />
        </div>
        <div className={styles.facts}>
          {item.visibility === 'private' && <LockOutlined title={t('files.private')} />}
          {item.type === ItemType.folder ? (
            <span>{t('files.folder')}</span>
          ) : (
            <>
              {item.fileFormat && <span className={styles.formats}>{item.fileFormat.toUpperCase()}</span>}
              <span>{formatSize(item.fileSize)}</span>
            </>
          )}
          {item.expired && (
            <Tag color="orange" className={styles.expired}>
              {t('files.expired')}
            </Tag>
          )}
          {item.reviewState !== 'draft' && (
            <ReviewStateTag state={item.reviewState} className={styles.expired} />
          )}
        </div>
      </div>
    </div>
  );
}
