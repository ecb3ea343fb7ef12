/** A start-up step that failed, named, so that the log says which one (and why). */
export class StartStepError extends Error {
  override readonly name = 'StartStepError';
  constructor(
    readonly step: string,
    cause: unknown,
  ) {
    super(`Start-up step "${step}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** Runs one named start-up step; its failure is a StartStepError naming the step. */
export async function startStep<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StartStepError) throw error;
    throw new StartStepError(step, error);
  }
}
