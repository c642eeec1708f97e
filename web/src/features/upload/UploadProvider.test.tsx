// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import { StrictMode, useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import type { UploadEvent } from './engine/types';
import { UploadProvider, useUploadManager } from './UploadProvider';

/** Records what the provider's manager reports. */
function EventLog({ events }: { events: UploadEvent['type'][] }) {
  const manager = useUploadManager();
  useEffect(() => manager.onEvent((event) => events.push(event.type)), [manager, events]);
  return null;
}

describe('upload provider', () => {
  // StrictMode mounts, unmounts and mounts again: the manager must still watch the network after.
  it('keeps its manager running under StrictMode', () => {
    const events: UploadEvent['type'][] = [];
    const view = render(
      <StrictMode>
        <App>
          <QueryClientProvider client={new QueryClient()}>
            <UploadProvider>
              <EventLog events={events} />
            </UploadProvider>
          </QueryClientProvider>
        </App>
      </StrictMode>,
    );
    window.dispatchEvent(new Event('offline'));
    window.dispatchEvent(new Event('online'));
    expect(events).toEqual(['offline', 'online']);

    // Unmounted for real (sign-out): the manager stops listening.
    view.unmount();
    window.dispatchEvent(new Event('offline'));
    expect(events).toEqual(['offline', 'online']);
  });
});
