/**
 * A Fastify route pattern from an apiPaths builder, so a path is written once:
 * routePattern(apiPaths.loyaltyHistory, 'uuid') → '/api/customer/loyalty-service/customer/:uuid/history'.
 * The builder is called with plain markers (which it leaves unencoded) that become ':name' parameters.
 */
export function routePattern<Names extends string[]>(
  builder: (...args: { [K in keyof Names]: string }) => string,
  ...names: Names
): string {
  const markers = names.map((_, i) => `ROUTEPARAM${i}X`) as { [K in keyof Names]: string };
  let pattern = builder(...markers);
  names.forEach((name, i) => {
    pattern = pattern.replace(`ROUTEPARAM${i}X`, `:${name}`);
  });
  return pattern;
}

/** A builder whose numeric parameters (a legal entity id) take the pattern's text markers too. */
export function withTextParams<Args extends unknown[]>(
  builder: (...args: Args) => string,
): (...args: { [K in keyof Args]: string }) => string {
  return builder as unknown as (...args: { [K in keyof Args]: string }) => string;
}
