/** Types of http-sign-in.mjs (used by the benchmarks and by the server's process tests). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  id_token: string;
  expires_in: number;
  token_type: string;
}

export function httpSignIn(
  baseUrl: string,
  email: string,
  password: string,
  clientId?: string,
  /** Extra headers of the token request, e.g. a DPoP proof (bench:api's DPoP variant). */
  tokenHeaders?: (tokenUrl: string) => Record<string, string>,
): Promise<TokenResponse>;
