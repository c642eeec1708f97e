import { capMallocArenas } from './malloc-arenas';

// Imported first by each entry (main.ts, worker.ts), so the limit holds before any module has
// started a thread.
export const mallocArenas = capMallocArenas();
