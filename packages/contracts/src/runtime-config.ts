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
  }),
  errorReporting: Type.Object({
    dsn: Type.Union([Type.String(), Type.Null()]),
    tracesSampleRate: Type.Number({ minimum: 0, maximum: 1 }),
  }),
  tagManager: Type.Object({ id: Type.Union([Type.String(), Type.Null()]) }),
});
export type RuntimeConfig = Type.Static<typeof RuntimeConfig>;
