/** The embedded engine's socket directories are named `<tmp>/payments-pglite-XXXXXX`. */
export const SOCKET_DIR_PREFIX = 'payments-pglite-';
/** Whether a connection URL is the embedded engine's (its socket directory), not a PostgreSQL server. */
export function isEmbeddedUrl(url) {
    try {
        return decodeURIComponent(new URL(url).hostname).includes(`/${SOCKET_DIR_PREFIX}`);
    }
    catch {
        return false;
    }
}
//# sourceMappingURL=embedded-url.js.map