// Signs a customer in over plain HTTP, the way a browser would: authorization code + PKCE through
// the embedded provider's login page. Used by the benchmarks; needs no browser.
import { createHash, randomBytes } from 'node:crypto';

/**
 * `tokenHeaders(tokenUrl)`: extra headers of the token request, e.g. a DPoP proof (bench:api's DPoP
 * variant).
 */
export async function httpSignIn(baseUrl, email, password, clientId = 'portal-client', tokenHeaders) {
  const jar = new Map();
  const remember = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      jar.set(name.trim(), value.join('='));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const go = async (url, init = {}) => {
    const res = await fetch(new URL(url, baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, cookie: cookie() },
    });
    remember(res);
    return res;
  };

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${baseUrl}/login/callback`;
  const auth = new URL(`${baseUrl}/auth/realms/customer/protocol/openid-connect/auth`);
  Object.entries({
    client_id: clientId,
    response_type: 'code',
    scope: 'openid profile email',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
  }).forEach(([k, v]) => auth.searchParams.set(k, v));

  let res = await go(auth);
  let location = res.headers.get('location');
  let code;
  for (let hops = 0; hops < 10 && location; hops++) {
    const url = new URL(location, baseUrl);
    if (url.href.startsWith(redirectUri)) {
      code = url.searchParams.get('code');
      break;
    }
    res = await go(url);
    if (res.status === 200) {
      const html = await res.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      if (!action) throw new Error('no login form found');
      res = await go(action, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
    }
    location = res.headers.get('location');
  }
  if (!code) throw new Error(`sign-in did not return a code (last status ${res.status})`);
  const tokenUrl = `${baseUrl}/auth/realms/customer/protocol/openid-connect/token`;
  const token = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...tokenHeaders?.(tokenUrl) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  if (!token.ok) throw new Error(`token request failed: ${token.status} ${await token.text()}`);
  return token.json();
}
