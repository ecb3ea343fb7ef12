/** What the app knows about where an error happened. */
export interface ErrorContext {
  /** e.g. 'route' (a page failed to render or load) or 'shell' (the frame itself). */
  where: string;
  componentStack?: string | null | undefined;
}

type Sink = (error: unknown, where: string) => void;
let sink: Sink | null = null;

/**
 * Where reports go besides the console: the error reporting SDK, set by the consent manager once the
 * customer consented (null again when consent is withdrawn).
 */
export function setErrorReportSink(next: Sink | null): void {
  sink = next;
}

/**
 * The one place errors of the app's own code are reported: the console, and the error reporting
 * service when the customer consented to it (features/consent).
 */
export function reportError(error: unknown, context: ErrorContext): void {
  console.error(`Roadpass ${context.where} error`, error, context.componentStack ?? '');
  sink?.(error, context.where);
}

/**
 * A route chunk that could not be downloaded (offline, or a deployment replaced the files), or its
 * stylesheet (Vite's preload helper says "Unable to preload CSS").
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically imported|ChunkLoadError|Unable to preload CSS/i.test(
      `${error.name} ${error.message}`,
    )
  );
}
