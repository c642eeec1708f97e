import { HolderOutlined } from '@ant-design/icons';
import type { Item } from '@dam/contract';
import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  rectSortingStrategy,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dropTarget } from './dropTarget';
import styles from './files.module.css';
import type { GridProps } from './ItemBrowser';
import { ItemGrid } from './ItemGrid';

/** One card that can be dragged by its grip (the pointer) or moved with the keyboard from it. */
function SortableCard({ item, children }: { item: Item; children: ReactNode }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: item.id });
  return (
    <div
      ref={setNodeRef}
      className={`${styles.sortable} ${isDragging ? styles.sortableDragging : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="sortable-card"
      data-name={item.name}
    >
      {children}
      <button
        type="button"
        ref={setActivatorNodeRef}
        className={styles.dragHandle}
        {...attributes}
        {...listeners}
        aria-label={t('collections.drag.handle', { name: item.name })}
        data-testid="drag-handle"
      >
        <HolderOutlined />
      </button>
    </div>
  );
}

/** What a screen reader hears while a card is moved, in the reader's language. */
function useAnnouncements(items: Item[]): Announcements {
  const { t } = useTranslation();
  // Picked up, a card is first "over" its own place: that says nothing new, and would cut off the
  // pick-up's announcement. Once it has left its place, coming back is announced like any place.
  const left = useRef(false);
  const nameOf = (id: unknown) => items.find((item) => item.id === id)?.name ?? '';
  const placeOf = (id: unknown) => String(items.findIndex((item) => item.id === id) + 1);
  return {
    onDragStart: ({ active }) => {
      left.current = false;
      return t('collections.drag.picked', { name: nameOf(active.id), place: placeOf(active.id) });
    },
    onDragOver: ({ active, over }) => {
      if (!over || (over.id === active.id && !left.current)) return undefined;
      left.current = true;
      return t('collections.drag.over', { name: nameOf(active.id), place: placeOf(over.id) });
    },
    onDragEnd: ({ active, over }) =>
      over
        ? t('collections.drag.dropped', { name: nameOf(active.id), place: placeOf(over.id) })
        : t('collections.drag.cancelled', { name: nameOf(active.id) }),
    onDragCancel: ({ active }) => t('collections.drag.cancelled', { name: nameOf(active.id) }),
  };
}

/**
 * A collection's grid whose cards its owner and editors reorder (issue 43): by the grip on each card
 * with the mouse or touch, or with the keyboard (Space or Enter on the grip, the arrow keys, Space
 * again; Escape puts it back). A drop puts the card before the card now after it (`beforeItemId`), or
 * last (null) when the whole collection is loaded; the server places it halfway between its new
 * neighbours. Only the cards drawn are targets (the grid is virtualised): it scrolls while dragging.
 */
export function SortableItemGrid({
  onMove,
  ...grid
}: GridProps & { onMove: (itemId: number, beforeItemId: number | null) => void }) {
  const { t } = useTranslation();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const announcements = useAnnouncements(grid.items);
  const ids = grid.items.map((item) => item.id);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    const before = dropTarget(ids, Number(active.id), Number(over.id), grid.hasMore);
    if (before !== undefined) onMove(Number(active.id), before);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: t('collections.drag.instructions') },
      }}
    >
      <SortableContext items={ids} strategy={rectSortingStrategy}>
        <ItemGrid
          {...grid}
          waterfall={false}
          frame={(item, card) => <SortableCard item={item}>{card}</SortableCard>}
        />
      </SortableContext>
    </DndContext>
  );
}
