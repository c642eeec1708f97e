import {
  ArrowLeftOutlined,
  DownloadOutlined,
  MinusCircleOutlined,
  ShareAltOutlined,
  TeamOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import type { CollectionSummary, Item } from '@dam/contract';
import { Alert, Button, Empty, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { useViewMode } from '../../ui/ListControls';
import {
  MembersDialog,
  useCollectionItems,
  useDragInCollection,
  useMoveInCollection,
  useRemoveFromCollection,
} from '../collections';
import { CollectionDownloadDialog } from '../download/lazy';
import { ShareDialog } from '../share/lazy';
import { ItemBrowser, type PagedItemsQuery } from './ItemBrowser';
import type { SelectionAction } from './SelectionBar';
import { SortableItemGrid } from './SortableItemGrid';

type Dialog = 'members' | 'share' | 'download' | null;

/** The collection's title and role, and its members, share and download buttons. */
function CollectionToolbar({
  collection,
  onOpen,
}: {
  collection: CollectionSummary | undefined;
  onOpen: (dialog: Dialog) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
      <Space wrap>
        <Link to="/collections" aria-label={t('collections.back')}>
          <ArrowLeftOutlined /> {t('collections.back')}
        </Link>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="collection-title">
          {collection?.name}
        </Typography.Title>
        {collection && <Tag>{t(`collections.role.${collection.role}`)}</Tag>}
      </Space>
      {collection && (
        <Space wrap>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => onOpen('download')}
            data-testid="collection-download"
          >
            {t('download.action')}
          </Button>
          <Button icon={<ShareAltOutlined />} onClick={() => onOpen('share')} data-testid="collection-share">
            {t('share.action')}
          </Button>
          <Button icon={<TeamOutlined />} onClick={() => onOpen('members')} data-testid="collection-members">
            {t('collections.members')}
          </Button>
        </Space>
      )}
    </Space>
  );
}

/**
 * One collection (/collections/:id, issue 43): the items the caller may see, in its order, and how
 * many are hidden. Its owner and editors reorder the cards by dragging them (grid view); everyone in
 * it may download it and share it by link. Here in files, beside the browser it shows them in
 * (collections' own screens must not import files: files' selection bar loads collections' dialog).
 */
export function CollectionPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const [viewMode] = useViewMode();
  const listing = useCollectionItems(id);
  const remove = useRemoveFromCollection();
  const move = useMoveInCollection();
  const drag = useDragInCollection(id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const first = listing.data?.pages[0];
  const collection = first?.collection;
  const editable = collection !== undefined && collection.role !== 'viewer';
  const waterfall = viewMode === 'WaterFall';
  const loaded = listing.data?.pages.flatMap((page) => page.list) ?? [];
  const actions: SelectionAction[] = editable
    ? [
        {
          key: 'collection-remove',
          label: t('collections.remove'),
          icon: <MinusCircleOutlined />,
          run: async (items: Item[]) => {
            const result = await remove.mutateAsync({ id, itemIds: items.map((item) => item.id) });
            notifySuccess(t('collections.removed', { count: result.changed }));
          },
        },
        {
          key: 'collection-first',
          label: t('collections.moveFirst'),
          icon: <VerticalAlignTopOutlined />,
          run: async (items: Item[]) => {
            // Each goes before the first item not chosen, in the order chosen: they lead in that order.
            const chosen = new Set(items.map((item) => item.id));
            const head = loaded.find((item) => !chosen.has(item.id))?.id ?? null;
            for (const item of items) await move.mutateAsync({ id, itemId: item.id, beforeItemId: head });
          },
        },
        {
          key: 'collection-last',
          label: t('collections.moveLast'),
          icon: <VerticalAlignBottomOutlined />,
          run: async (items: Item[]) => {
            for (const item of items) await move.mutateAsync({ id, itemId: item.id, beforeItemId: null });
          },
        },
      ]
    : [];
  const close = () => setDialog(null);
  return (
    <ItemBrowser
      listing={listing as unknown as PagedItemsQuery}
      testId="collection-page"
      waterfall={waterfall}
      selectionScope={id}
      selectionActions={actions}
      empty={<Empty description={t('collections.emptyItems')} />}
      // Dragging in the grid view: the waterfall's columns of measured height have no stable places.
      {...(editable && !waterfall
        ? {
            grid: (props) => (
              <SortableItemGrid
                {...props}
                onMove={(itemId, beforeItemId) => drag.mutate({ itemId, beforeItemId })}
              />
            ),
          }
        : {})}
      notice={
        first && first.hiddenCount > 0 ? (
          <Alert
            type="info"
            showIcon
            style={{ margin: '0 0 8px' }}
            message={t('collections.hidden', { count: first.hiddenCount })}
            data-testid="collection-hidden"
          />
        ) : null
      }
      toolbar={<CollectionToolbar collection={collection} onOpen={setDialog} />}
    >
      {dialog === 'members' && collection && <MembersDialog collection={collection} onClose={close} />}
      {dialog === 'share' && collection && <ShareDialog collection={collection} onClose={close} />}
      {dialog === 'download' && collection && (
        <CollectionDownloadDialog collection={collection} onClose={close} />
      )}
    </ItemBrowser>
  );
}
