// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { ChangePasswordForm } from './ChangePasswordForm';

describe('change of one’s own password', () => {
  it('says the password rule once: the hint gives way to the error (issue 39 item 13)', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <ChangePasswordForm />
      </MemoryRouter>,
    );
    const rule = i18n.t('account.passwordRule');
    expect(screen.getByText(rule)).toBeTruthy();
    const [, fresh] = document.querySelectorAll('input[type=password]');
    await user.type(fresh as HTMLElement, 'abc');
    await user.tab();
    await waitFor(() => expect(screen.getByText(i18n.t('account.passwordWeak'))).toBeTruthy());
    expect(screen.queryByText(rule)).toBeNull();
    // Mended, the hint is back.
    await user.clear(fresh as HTMLElement);
    await user.type(fresh as HTMLElement, 'Abc#2026x');
    await waitFor(() => expect(screen.queryByText(i18n.t('account.passwordWeak'))).toBeNull());
    expect(screen.getByText(rule)).toBeTruthy();
  });
});
