import Type from 'typebox';

/** GET /config.json: what the app reads at start. The same build runs everywhere. */
export const RuntimeConfig = Type.Object({
  environment: Type.Union([
    Type.Literal('production'),
    Type.Literal('integration'),
    Type.Literal('local'),
    Type.Literal('test'),
  ]),
  identityProvider: Type.Object({
    /** Base URL of the provider, Keycloak style: the realm lives at {url}/realms/{realm}. */
    url: Type.String(),
    realm: Type.String(),
    clientId: Type.String(),
    /**
     * The realm's endpoints as its discovery document names them, for the embedded provider: with
     * them the app starts a sign-in without asking for that document, a round trip less on every
     * first visit (docs/performance.md#through-the-fleet). Absent for an external provider, whose
     * document the app reads.
     */
    metadata: Type.Optional(
      Type.Object({
        issuer: Type.String(),
        authorization_endpoint: Type.String(),
        token_endpoint: Type.String(),
        end_session_endpoint: Type.String(),
        revocation_endpoint: Type.String(),
        userinfo_endpoint: Type.String(),
      }),
    ),
  }),
  errorReporting: Type.Object({
    dsn: Type.Union([Type.String(), Type.Null()]),
    tracesSampleRate: Type.Number({ minimum: 0, maximum: 1 }),
    /** docs/product/api.md#calls server-error helper: failed API calls with these statuses are reported (default [500]). */
    serverErrorStatuses: Type.Array(Type.Integer({ minimum: 500, maximum: 599 })),
  }),
  /**
   * The feedback form ("Report a Bug", docs/product/account-rules.md#validation-rules): which of name and e-mail it asks for and whether they
   * are required (the message always is). Absent (an older server): both shown, neither required.
   */
  feedback: Type.Optional(
    Type.Object({
      showName: Type.Boolean(),
      showEmail: Type.Boolean(),
      isNameRequired: Type.Boolean(),
      isEmailRequired: Type.Boolean(),
    }),
  ),
  tagManager: Type.Object({
    /** The container id (e.g. GTM-XXXX), per environment; null: no tag manager. */
    id: Type.Union([Type.String(), Type.Null()]),
    /** The script's address without the id (https://www.googletagmanager.com/gtm.js by default). */
    url: Type.String(),
  }),
});
export type RuntimeConfig = Type.Static<typeof RuntimeConfig>;
