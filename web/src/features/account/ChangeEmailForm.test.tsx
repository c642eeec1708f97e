// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../i18n';
import { ChangeEmailForm } from './ChangeEmailForm';

const ok = (result: unknown) =>
  new Response(JSON.stringify({ success: true, result, errorCode: null, errorDesc: null }));

describe('change of e-mail address', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('follows the confirmation mail until it went, and says so', async () => {
    const states = [
      { state: 'queued', attempts: 1, lastError: '421 Service not available', sentAt: null },
      { state: 'sent', attempts: 2, lastError: null, sentAt: '2026-11-26T08:00:00Z' },
    ];
    const fetchMock = vi.fn(async (url: string) => {
      if (url.includes('/email-modify')) return ok({ mailId: 7 });
      if (url.includes('/user/mail-status?id=7')) {
        return ok({ id: 7, recipient: 'new@example.com', ...(states.shift() ?? { state: 'sent' }) });
      }
      throw new Error(`unexpected call ${url}`);
    });
    vi.stubGlobal('fetch', fetchMock);
    // The form asks again every 2 s while the mail is queued: the test moves the clock instead.
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ChangeEmailForm current="old@example.com" />
      </QueryClientProvider>,
    );
    await user.type(screen.getByLabelText('新邮箱'), 'OLD@example.com');
    await user.click(screen.getByRole('button', { name: '发送确认邮件' }));
    expect(await screen.findByText('新邮箱与当前邮箱相同')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('新邮箱'));
    await user.type(screen.getByLabelText('新邮箱'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: '发送确认邮件' }));
    const notice = await screen.findByTestId('email-link-sent');
    await waitFor(() =>
      expect(notice.textContent).toContain('暂未发出（421 Service not available），正在重试'),
    );
    await waitFor(() => expect(notice.getAttribute('data-state')).toBe('sent'), { timeout: 5_000 });
    expect(notice.textContent).toContain('确认邮件已发送到 new@example.com');
  });
});
