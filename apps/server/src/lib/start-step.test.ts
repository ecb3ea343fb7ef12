import { describe, expect, it } from 'vitest';
import { StartStepError, startStep } from './start-step.js';

describe('start-up steps', () => {
  it('passes a result through', async () => {
    await expect(startStep('reference data', async () => 42)).resolves.toBe(42);
  });

  it('names the step that failed and keeps the cause', async () => {
    const cause = new Error('duplicate key value violates unique constraint "customers_email_lower"');
    const failure = startStep('demo data', async () => {
      throw cause;
    });
    await expect(failure).rejects.toThrow(
      'Start-up step "demo data" failed: duplicate key value violates unique constraint "customers_email_lower"',
    );
    await expect(failure).rejects.toMatchObject({ step: 'demo data', cause });
  });

  it('keeps the innermost step name when steps nest', async () => {
    const failure = startStep('database', () =>
      startStep('database migrations', async () => {
        throw new Error('relation exists');
      }),
    );
    await expect(failure).rejects.toBeInstanceOf(StartStepError);
    await expect(failure).rejects.toThrow('Start-up step "database migrations" failed: relation exists');
  });
});
