/** The spec's FieldConstraint: machine-readable hint of the broken rule. */
export interface FieldConstraint {
  format?: string;
  pattern?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
}

/** One entry of `details.errors` on a 400 INVALID_INPUT (spec, FieldError). */
export interface FieldError {
  /** Dot-notation path to the offending field, e.g. `accountInfo.beneficiary.address.country`. */
  field: string;
  constraint?: FieldConstraint;
  message?: string;
}

/** Builds one FieldError (the only way services make them). */
export function fieldError(field: string, message: string, constraint?: FieldConstraint): FieldError {
  return constraint ? { field, constraint, message } : { field, message };
}
