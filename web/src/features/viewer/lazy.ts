/**
 * The viewer feature's pieces other features load on demand: loaders only, so importing this file adds
 * nothing to a chunk and each piece keeps its own (issue 41 item 3; index.ts is the static face).
 */
export const loadFileViewer = () => import('./FileViewer');
