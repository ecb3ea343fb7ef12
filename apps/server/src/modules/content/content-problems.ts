import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from 'typebox';

const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** `/rewards/3/benefits/0/titleId` → `rewards[3].benefits[0].titleId` */
function fieldOf(error: ErrorObject): string {
  const parts = error.instancePath.split('/').slice(1);
  const extra = (error.params as { additionalProperty?: string; missingProperty?: string }) ?? {};
  const child = extra.additionalProperty ?? extra.missingProperty;
  if (child) parts.push(child);
  return parts.reduce(
    (field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field ? `${field}.${part}` : part),
    '',
  );
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not an accepted field';
  if (error.keyword === 'required') return 'is missing';
  return error.message ?? 'is invalid';
}

/**
 * Collects every problem found in the content files, each naming its file (relative to the content
 * folder) and field, so that start-up fails once with the whole list instead of at the first mistake.
 */
export class ContentProblems {
  private readonly problems: string[] = [];

  constructor(readonly contentDir: string) {}

  /** Path of a content file, relative to the content folder (how problems name it). */
  name(file: string): string {
    return path.relative(this.contentDir, file).split(path.sep).join('/');
  }

  add(file: string, field: string, message: string): void {
    this.problems.push(`${this.name(file)}: ${field ? `${field} ` : ''}${message}`);
  }

  get count(): number {
    return this.problems.length;
  }

  /** The parsed file, or undefined (with a problem) when it is missing or not JSON. */
  async readJson(file: string): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      this.add(file, '', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      this.add(file, '', `is not valid JSON: ${(error as Error).message}`);
      return undefined;
    }
  }

  /** Reads a file and checks it against its schema; undefined (with problems) when it does not fit. */
  async readChecked<T extends TSchema>(file: string, schema: T): Promise<Static<T> | undefined> {
    const value = await this.readJson(file);
    if (value === undefined) return undefined;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    if (validate(value)) return value as Static<T>;
    for (const error of validate.errors ?? []) this.add(file, fieldOf(error), messageOf(error));
    return undefined;
  }

  /** Throws one error listing every problem, if there is any. */
  throwIfAny(what: string): void {
    if (!this.problems.length) return;
    throw new Error(
      `Invalid ${what} in ${this.contentDir} (${this.problems.length} problem${this.problems.length > 1 ? 's' : ''}):\n  - ${this.problems.join('\n  - ')}`,
    );
  }
}
