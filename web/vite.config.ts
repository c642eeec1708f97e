import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/ske-api': api, '/security-api': api, '/open': api, '/health': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The budget check (scripts/check-bundle-size.mjs) reads which chunks each page needs here.
    manifest: true,
    rolldownOptions: { treeshake: { manualPureFunctions: ['z'] } },
  },
});
