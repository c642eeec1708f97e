import { capMallocArenas } from './malloc-arenas';

// Built as an entry of its own (server/dist/malloc-arenas.js) that `npm start`, `npm run worker`
// and `npm run sweep-objects` (scripts/start.mjs) load before their entry, so the limit holds
// before any module has started a thread. Under tsx (`npm run dev:server`) there is no limit.
export const mallocArenas = capMallocArenas();
