/** What the app knows about where an error happened. */
export interface ErrorContext {
  /** e.g. 'route' (a page failed to render or load) or 'shell' (the frame itself). */
  where: string;
  componentStack?: string | null | undefined;
}

/**
 * The one place errors of the app's own code are reported. Today: the console. The error-reporting
 * service (issue 9, only with the customer's consent) plugs in here.
 */
export function reportError(error: unknown, context: ErrorContext): void {
  console.error(`Roadpass ${context.where} error`, error, context.componentStack ?? '');
}

/** A route chunk that could not be downloaded (offline, or a deployment replaced the files). */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported|ChunkLoadError/i.test(
      `${error.name} ${error.message}`,
    )
  );
}
