/**
 * The tags feature's public face. No other feature uses anything of it: it is reached through its lazy
 * routes (app/router.tsx) or the layout. Other features import only this file (issue 41 item 3).
 */
export {};
