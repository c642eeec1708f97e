// First: the router, and with it the first page's calls (app/startRouter.ts).
import './app/startRouter';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLanguage } from './i18n';
import './styles.css';
import { App } from './app/App';
import { router } from './app/startRouter';

function render(): void {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

// English strings are their own chunk, fetched before the first render when English is chosen
// (should that fail, the pages show the Chinese fallback rather than nothing). Not a top-level
// await: that would turn off Rolldown's chunk optimisations for the whole build.
void loadLanguage()
  .catch((error: unknown) => console.error(error))
  .then(render);
