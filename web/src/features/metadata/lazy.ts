/**
 * The metadata feature's pieces other features load on demand, each with its own chunk (issue 41
 * item 3; index.ts is the static face).
 */
export const loadMetadataSection = () => import('./MetadataSection');
