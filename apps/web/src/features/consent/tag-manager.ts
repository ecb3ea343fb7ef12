import type { RuntimeConfig } from '@roadpass/contracts';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/**
 * Loads the tag manager container of /config.json (only called after analytics consent): the
 * dataLayer start event, then the script from tagManager.url with the id. No inline script: the CSP
 * allows only the configured host. Returns false when no container is configured.
 */
export function loadTagManager(config: RuntimeConfig, doc: Document = document): boolean {
  const { id, url } = config.tagManager;
  if (!id) return false;
  if (doc.querySelector('script[data-tag-manager]')) return true;
  const w = doc.defaultView as Window;
  w.dataLayer = w.dataLayer ?? [];
  w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = doc.createElement('script');
  script.async = true;
  script.src = `${url}?id=${encodeURIComponent(id)}`;
  script.dataset.tagManager = id;
  doc.head.appendChild(script);
  return true;
}
