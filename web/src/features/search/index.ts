/**
 * The search feature's public face: other features import only this file (or ./lazy.ts for what they
 * load on demand); everything else in the folder is its own (issue 41 item 3, guard-rails test).
 */
export { useSearch } from './api';
export { batchSummary, searchUrl } from './searchUrl';
