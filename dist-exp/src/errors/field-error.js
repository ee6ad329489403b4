/** Builds one FieldError (the only way services make them). */
export function fieldError(field, message, constraint) {
    return constraint ? { field, constraint, message } : { field, message };
}
//# sourceMappingURL=field-error.js.map