// Shared by the browser benchmarks: Debian's Chromium (never a downloaded browser) and the flags it
// needs headless on this machine (no sandbox, no GPU, no background traffic).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
