// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import { DownloadClientDialog } from './DownloadClientDialog';

describe('download-client dialog', () => {
  it('offers only the systems a link is configured for', () => {
    render(
      <DownloadClientDialog
        links={{ mac: null, windows: 'https://files.example.com/setup.exe' }}
        onClose={() => {}}
      />,
    );
    expect(screen.getByTestId('client-download-windows').getAttribute('href')).toBe(
      'https://files.example.com/setup.exe',
    );
    expect(screen.queryByTestId('client-download-mac')).toBeNull();
  });
});
