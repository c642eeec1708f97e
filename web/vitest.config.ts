import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    // Plain logic runs in Node: no jsdom to set up per file. A test that renders components or
    // needs the DOM (cookies, localStorage) says `// @vitest-environment jsdom` on its first line.
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // Ant Design forms typed into through jsdom take seconds on a busy 2-CPU CI machine.
    testTimeout: 20_000,
  },
});
