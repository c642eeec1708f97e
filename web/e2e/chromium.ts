/**
 * Debian's Chromium as the journeys and the browser benchmark launch it (Playwright cannot
 * download its own browser on these machines; scripts/setup-system.sh installs this one).
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
