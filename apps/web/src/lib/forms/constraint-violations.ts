import type { ConstraintViolationError, ConstraintViolationMeta } from '@roadpass/contracts';
import { isHttpError } from '@/lib/http';

/**
 * The violations of a 400 (or a 429 "too soon") of the password or mobile call (docs/product/errors.md#error-catalogue): constraintViolationMetaInfo's
 * metaDataList is one item or a list; empty for any other error.
 */
export function constraintViolationsOf(error: unknown): ConstraintViolationMeta[] {
  if (!isHttpError(error) || (error.status !== 400 && error.status !== 429)) return [];
  const list = (error.body as Partial<ConstraintViolationError> | undefined)?.constraintViolationMetaInfo
    ?.metaDataList;
  if (!list) return [];
  return Array.isArray(list) ? list : [list];
}
