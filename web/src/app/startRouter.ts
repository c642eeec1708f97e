import { createAppRouter } from './router';

/**
 * The app's router, made as this module is evaluated. main.tsx imports it first, and a bundle
 * runs modules in the order they are imported: the first page's calls and chunks are asked for
 * before React DOM, the largest module of the entry, is evaluated, instead of after it (issue 12
 * goal 4).
 */
export const router = createAppRouter();
