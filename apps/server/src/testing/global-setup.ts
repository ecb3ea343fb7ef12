import type { TestProject } from 'vitest/node';
import { makeTemplateDatabase, type TemplateDatabase } from './template-database.js';
import { testConfig } from './test-app.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's template database of the project's target (template-database.ts). */
    templateDatabase: TemplateDatabase | undefined;
  }
}

/**
 * Once per project and run, before its test files: the template database that createTestApp copies
 * (template-database.ts), on the project's target; removed after the last file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = project.config.env.TEST_DB_TARGET === 'postgres' ? 'postgres' : 'pglite';
  const { template, remove } = await makeTemplateDatabase(target, testConfig());
  project.provide('templateDatabase', template);
  return remove;
}
