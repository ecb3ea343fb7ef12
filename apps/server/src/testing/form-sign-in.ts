/**
 * A browser's cookie handling over plain HTTP, no redirects followed: what the realm's pages need
 * (its session and interaction cookies).
 */
export function cookieFetch(jar: Map<string, string>) {
  return async (url: string | URL, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    return res;
  };
}

/**
 * Follows an authorization URL as a browser would over plain HTTP — redirects, cookies, the realm's
 * sign-in form filled with `credentials` — until the client's redirect URI, whose URL (with the code)
 * it answers, for a real client library to finish the exchange. `jar` keeps the browser's cookies
 * across calls (the realm's session, for a later logout).
 */
export async function signInThroughForm(
  origin: string,
  authorizationUrl: URL,
  redirectUri: string,
  credentials: { email: string; password: string },
  jar = new Map<string, string>(),
): Promise<URL> {
  const browse = cookieFetch(jar);
  const go = (url: string | URL, init: RequestInit = {}) => browse(new URL(url, origin), init);
  let res = await go(authorizationUrl);
  for (let hops = 0; hops < 10; hops++) {
    if (res.status === 200) {
      const html = await res.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      if (!action) throw new Error(`no sign-in form: ${html.slice(0, 200)}`);
      res = await go(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(credentials).toString(),
      });
      continue;
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${res.status}: ${await res.text()}`);
    const url = new URL(location, origin);
    if (url.href.startsWith(redirectUri)) return url;
    res = await go(url);
  }
  throw new Error('too many redirects');
}
