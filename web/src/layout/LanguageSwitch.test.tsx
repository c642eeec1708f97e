// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n';
import { LanguageSwitch } from './LanguageSwitch';

describe('language switch', () => {
  afterEach(() => localStorage.clear());

  it('opens on click with the current language ticked, and closes on Escape', async () => {
    render(<LanguageSwitch />);
    const button = screen.getByTestId('language-switch');
    expect(button.textContent).toBe('中文');
    expect(screen.queryByRole('menu')).toBeNull();
    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('menuitemradio', { name: '中文' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe('false');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stores the chosen language, and choosing the current one changes nothing', async () => {
    render(<LanguageSwitch />);
    await userEvent.click(screen.getByTestId('language-switch'));
    await userEvent.click(screen.getByRole('menuitemradio', { name: '中文' }));
    expect(localStorage.getItem('lang')).toBeNull();
    expect(screen.queryByRole('menu')).toBeNull();
    await userEvent.click(screen.getByTestId('language-switch'));
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'English' }));
    expect(localStorage.getItem('lang')).toBe('en');
  });

  it('closes when the pointer goes down elsewhere on the page', async () => {
    render(
      <div>
        <LanguageSwitch />
        <p>elsewhere</p>
      </div>,
    );
    await userEvent.click(screen.getByTestId('language-switch'));
    expect(screen.getByRole('menu')).toBeTruthy();
    await userEvent.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
