import { describe, expect, it } from 'vitest';
import { readEnvironment } from './environment';

describe('readEnvironment', () => {
  it('reads tracking opt-out only when the parameter is exactly true', () => {
    expect(readEnvironment('?tracking_opt_out=true', '').trackingOptOut).toBe(true);
    expect(readEnvironment('?tracking_opt_out=1', '').trackingOptOut).toBe(false);
    expect(readEnvironment('', '').trackingOptOut).toBe(false);
  });

  it('detects the webview from the query or the user agent', () => {
    expect(readEnvironment('?is_webview=true', 'Mozilla/5.0').isWebView).toBe(true);
    expect(readEnvironment('', 'Mozilla/5.0 (Linux; Android 14; wv) RoadpassApp WebView').isWebView).toBe(
      true,
    );
    expect(readEnvironment('', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140').isWebView).toBe(false);
  });

  it('reads the requested locale', () => {
    expect(readEnvironment('?locale=de_DE', '').requestedLocale).toBe('de_DE');
    expect(readEnvironment('', '').requestedLocale).toBeNull();
  });
});
