import { describe, expect, it } from 'vitest';
import { describeDevice } from './device-description.js';

const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const iosApp =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Roadpass-WebView/4.2.0';

describe('describeDevice', () => {
  it('names the browser with its major version and the system', () => {
    expect(describeDevice(firefox)).toEqual({ client: 'Firefox 133', system: 'Windows 10', kind: 'browser' });
  });

  it('names the Roadpass app and its platform from the webview token', () => {
    expect(describeDevice(iosApp)).toEqual({
      client: 'Roadpass app for iOS 4.2.0',
      system: 'iOS 18.1',
      kind: 'app',
    });
  });

  it('describes a user agent seen before from its memo, and a caller cannot change what the next one gets', () => {
    const first = describeDevice(firefox);
    expect(describeDevice(firefox)).toBe(first);
    expect(() => {
      (first as { client: string }).client = 'changed';
    }).toThrow(TypeError);
    expect(describeDevice(firefox).client).toBe('Firefox 133');
  });

  it('stays right past its bound: 6 000 different user agents, then the first again', () => {
    for (let i = 0; i < 6_000; i++)
      expect(
        describeDevice(`Mozilla/5.0 (X11; Linux x86_64; rv:${i}.0) Gecko/20100101 Firefox/${i}.0`).client,
      ).toBe(`Firefox ${i}`);
    expect(describeDevice(firefox)).toEqual({ client: 'Firefox 133', system: 'Windows 10', kind: 'browser' });
    expect(describeDevice(iosApp).kind).toBe('app');
  });

  it('reads only the first 512 characters', () => {
    expect(describeDevice(firefox + ' '.repeat(600) + 'Roadpass-WebView/9.9.9').kind).toBe('browser');
  });
});
