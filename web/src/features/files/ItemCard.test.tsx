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
  reviewState: 'draft',
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

    const target = screen.getByTestId('item-name');
    fireEvent.mouseEnter(target);
    act(() => vi.advanceTimersByTime(600));
    // The element under the pointer is the same one: its leave and click still arrive.
    expect(screen.getByTestId('item-name')).toBe(target);
    expect(screen.getByRole('tooltip').textContent).toBe('AB9001-red-side-view-2026-spring-catalogue.jpg');
    fireEvent.mouseLeave(screen.getByTestId('item-name'));
    act(() => vi.advanceTimersByTime(2000));
    // Closed, or closing: jsdom may leave the popup in its leave motion, which only a close starts.
    expect(screen.getByRole('tooltip', { hidden: true }).parentElement?.className).toMatch(
      /ant-zoom-big-fast-leave|ant-tooltip-hidden/,
    );
  });

  it('opens its menu on the first click of "…", runs the chosen action, and opens it again', async () => {
    const onAction = renderCard();
    const button = screen.getByTestId('item-menu');
    button.focus();
    fireEvent.click(button);
    // The menu's button is the one a keyboard user was on.
    expect(document.activeElement).toBe(screen.getByTestId('item-menu'));
    expect(screen.getByTestId('item-menu').className).toContain('ant-dropdown-open');
    fireEvent.click(await screen.findByRole('menuitem', { name: i18n.t('files.favourite') }));
    expect(onAction).toHaveBeenCalledWith('favourite', expect.objectContaining({ id: 7 }));
    expect(screen.getByTestId('item-menu').className).not.toContain('ant-dropdown-open');

    fireEvent.click(screen.getByTestId('item-menu'));
    expect(screen.getByTestId('item-menu').className).toContain('ant-dropdown-open');
    fireEvent.click(await screen.findByRole('menuitem', { name: i18n.t('share.action') }));
    expect(onAction).toHaveBeenLastCalledWith('share', expect.objectContaining({ id: 7 }));
  });
});
