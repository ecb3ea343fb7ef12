import type { ConstraintViolationMeta } from '@roadpass/contracts';
import { ApiError } from './api-error.js';

/** A 400 (or 429) whose body also carries the spec's constraintViolationMetaInfo (texts for the app). */
export class ConstraintViolation extends ApiError {
  constructor(
    status: 400 | 429,
    message: string,
    readonly metaDataList: ConstraintViolationMeta[],
    /** For a 429: seconds until another try can succeed (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(
      status,
      status === 400 ? 'validation_failed' : 'too_many_requests',
      message,
      metaDataList.map((m) => ({ field: m.attribute, rule: m.validator, message: m.text })),
    );
  }
  override toBody() {
    return { ...super.toBody(), constraintViolationMetaInfo: { metaDataList: this.metaDataList } };
  }
}
