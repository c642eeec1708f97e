/**
 * The keyword → tag mapping feature's public face (issue 42): its admin screen is reached through
 * its lazy route (app/router.tsx); the viewer's metadata section shows a file's findings.
 */
export { MappingFindings } from './MappingFindings';
