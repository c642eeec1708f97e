import enApp from './en-app';
import enCore from './en-core';

/**
 * English, whole: the sign-in and visitor part (en-core.ts) and the features' (en-app.ts), kept
 * apart so pages outside the signed-in layout fetch only the first; this is the whole table.
 */
const en = { ...enCore, ...enApp };

export default en;
