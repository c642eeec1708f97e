// @vitest-environment jsdom
import { type Item, ItemType } from '@dam/contract';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n';
import { ItemCard } from './ItemCard';

const item = (over: Partial<Item> = {}): Item => ({
  id: 7,
  folderDataId: 3,
  type: ItemType.image,
  name: 'AB9001-red-side-view-2026-spring-catalogue.jpg',
  path: '/Shoes',
  parentId: 3,
  fileFormat: 'jpg',
  compactUrl: null,
  fileSize: 120_000,
  artNum: 'AB9001',
  expireStartTime: null,
  expireEndTime: null,
  expired: false,
  createdAt: '2026-11-26T06:30:00.000Z',
  updatedAt: '2026-11-26T06:30:00.000Z',
  ownerId: 1,
  userName: 'Li',
  visibility: 'shared',
  collected: false,
  viewCount: 0,
  downloadCount: 0,
  authList: ['view', 'download', 'share', 'edit'],
  ...over,
});

function renderCard(onAction = vi.fn()) {
  render(
    <ItemCard
      item={item()}
      size={200}
      waterfall={false}
      selected={false}
      onSelect={vi.fn()}
      onAction={onAction}
    />,
  );
  return onAction;
}

describe('item card', () => {
  afterEach(() => vi.useRealTimers());

  it('shows the full name once the pointer has rested on it, and hides it when the pointer leaves', () => {
    vi.useFakeTimers();
    renderCard();
    const name = screen.getByTestId('item-name');
    fireEvent.mouseEnter(name);
    act(() => vi.advanceTimersByTime(300));
    expect(screen.queryByRole('tooltip')).toBeNull();
    // Passing over a name does not show it.
    fireEvent.mouseLeave(name);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(screen.getByTestId('item-name'));
    act(() => vi.advanceTimersByTime(600));
    expect(screen.getByRole('tooltip').textContent).toBe('AB9001-red-side-view-2026-spring-catalogue.jpg');
    fireEvent.mouseLeave(screen.getByTestId('item-name'));
    act(() => vi.advanceTimersByTime(1000));
    // Closing (jsdom runs no animation to its end, so the popup stays in its leave motion).
    expect(screen.getByRole('tooltip').parentElement?.className).toMatch(/ant-zoom-big-fast-leave/);
  });

  it('opens its menu on the first click of "…", runs the chosen action, and opens it again', async () => {
    const onAction = renderCard();
    fireEvent.click(screen.getByTestId('item-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: i18n.t('files.favourite') }));
    expect(onAction).toHaveBeenCalledWith('favourite', expect.objectContaining({ id: 7 }));

    fireEvent.click(screen.getByTestId('item-menu'));
    fireEvent.click(await screen.findByRole('menuitem', { name: i18n.t('share.action') }));
    expect(onAction).toHaveBeenLastCalledWith('share', expect.objectContaining({ id: 7 }));
  });
});
