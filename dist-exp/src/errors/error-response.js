/** Writes an ApiError as `{code, reason, details?}` with the SDK retry hints. */
export function sendApiError(res, error) {
    if (res.headersSent)
        return;
    res.setHeader('x-should-retry', String(error.retryable));
    if (error.options.retryAfterSeconds !== undefined)
        res.setHeader('Retry-After', String(error.options.retryAfterSeconds));
    for (const [name, value] of Object.entries(error.options.headers ?? {}))
        res.setHeader(name, value);
    const body = { code: error.code, reason: error.reason };
    if (error.details !== undefined)
        body.details = error.details;
    res.status(error.status).json(body);
}
//# sourceMappingURL=error-response.js.map