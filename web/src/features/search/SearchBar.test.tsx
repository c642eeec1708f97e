// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import '../../i18n';
import { SearchBar } from './SearchBar';
import { readSearch } from './searchUrl';

function renderBar(at = '/allfiles/all') {
  const router = createMemoryRouter([{ path: '*', element: <SearchBar /> }], { initialEntries: [at] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('the search bar’s colour', () => {
  it('searches by a colour alone, carrying it in the results URL', async () => {
    const router = renderBar();
    expect(screen.getByTestId('search-go')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByTestId('search-colour'));
    await userEvent.click(await screen.findByTestId('colour-preset-red'));
    await userEvent.click(screen.getByText('≥ 8%'));
    expect(screen.getByTestId('search-go')).toHaveProperty('disabled', false);
    await userEvent.click(screen.getByTestId('search-colour-go'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const search = readSearch(new URLSearchParams(router.state.location.search));
    expect(search).toMatchObject({ query: '', searchType: 1, colour: '#cc0000', colourTolerance: 'loose' });
  });

  it('shows the colour of the results it is on', () => {
    renderBar('/?search=%7B%22searchType%22%3A1%2C%22query%22%3A%22%22%7D&global=true&colour=%231565c0');
    expect(screen.getByTestId('search-colour').getAttribute('data-colour')).toBe('#1565c0');
  });
});
