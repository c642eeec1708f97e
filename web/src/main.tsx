import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLanguage } from './i18n';
import './styles.css';
import { App } from './app/App';
import { createAppRouter } from './app/router';

// First, so that the first page's code and calls are on their way while the rest starts.
const router = createAppRouter();

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
