import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// The web suite runs its files one after another in a worker without a new jsdom each (isolate: false
// in vitest.config.ts: a fresh jsdom per file was two thirds of the suite's time). Each file still gets
// the app's modules anew, so module state (the translations, the store, a loaded chunk) never leaks
// from one file to the next; libraries from node_modules are loaded once.
vi.resetModules();

// jsdom has no <dialog> modal API; a minimal stand-in that toggles the open attribute.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

afterEach(async () => {
  cleanup();
  // The session module of this file (imported after the reset above), not an earlier file's.
  const { resetTestSession } = await import('./session');
  resetTestSession();
  sessionStorage.clear();
  localStorage.clear();
});

// The one jsdom outlives the file: what the app put on window (the native bridge's setters, which a
// webview start installs) goes with the file that put it there.
afterAll(async () => {
  const { removeHostSetters } = await import('@/lib/native-bridge/host-bridge');
  removeHostSetters();
  document.documentElement.removeAttribute('lang');
  document.title = '';
});
