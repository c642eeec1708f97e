// Whether the router is still loading the page the app was opened on. Route loaders wait for their
// data only then (firstLoadData), when the screen holds nothing but the loading indicator anyway;
// on later navigations the page being left stays on screen, and the next one must come at once.
let firstLoad = true;

/** True until the router has loaded the page the app was opened on. */
export const isFirstLoad = (): boolean => firstLoad;

/** Called by the router once its first page is loaded. */
export function firstLoadDone(): void {
  firstLoad = false;
}
