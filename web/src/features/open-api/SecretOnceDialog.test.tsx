// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import { type IssuedSecret, SecretOnceDialog } from './SecretOnceDialog';

const ISSUED: IssuedSecret = {
  kind: 'created',
  name: 'ERP',
  keyId: 'dak_ABCDEFGHIJKLMNOPQRST',
  secret: 'dsk_0123456789abcdefghijklmnopqrstuvwxyzABCDE',
};

/** The page's way: the secret is held in state until the dialog closes, then forgotten. */
function Holder({ initial }: { initial: IssuedSecret }) {
  const [issued, setIssued] = useState<IssuedSecret | null>(initial);
  return (
    <App>
      <SecretOnceDialog issued={issued} onClose={() => setIssued(null)} />
    </App>
  );
}

describe('the once-only secret dialog', () => {
  it('shows the key id and secret with copy buttons and a warning, then forgets them when closed', async () => {
    const user = userEvent.setup();
    const { container } = render(<Holder initial={ISSUED} />);

    expect(screen.getByTestId('api-key-id').textContent).toBe(ISSUED.keyId);
    expect(screen.getByTestId('api-secret').textContent).toBe(ISSUED.secret);
    expect(screen.getByTestId('api-key-id-copy')).toBeTruthy();
    expect(screen.getByTestId('api-secret-copy')).toBeTruthy();
    expect(screen.getByText('密钥只显示这一次')).toBeTruthy();
    expect(screen.getByText('API 接入已创建')).toBeTruthy();

    // Escape and a click beside it do not close it: only the button does.
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('api-secret')).toBeTruthy();

    await user.click(screen.getByTestId('api-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('api-secret')).toBeNull());
    // Nothing of the secret is left in the page.
    expect(document.body.innerHTML).not.toContain(ISSUED.secret);
    expect(container.innerHTML).not.toContain(ISSUED.keyId);
  });

  it('says when the secret is a rotated one', () => {
    render(<Holder initial={{ ...ISSUED, kind: 'rotated' }} />);
    expect(screen.getByText('密钥已轮换')).toBeTruthy();
  });
});
