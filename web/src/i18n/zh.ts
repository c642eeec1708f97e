import zhApp from './zh-app';
import zhCore from './zh-core';

/**
 * Chinese: the default language and the fallback for every other (SPEC §1). Kept in two parts so
 * the sign-in page does not load the rest (zh-core.ts, zh-app.ts); this is the whole table.
 */
const zh = { ...zhCore, ...zhApp };

export default zh;
export type Messages = typeof zh;
