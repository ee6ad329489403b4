/** Error codes of the auth area and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const AUTH_ERRORS = {
    TOKEN_NOT_FOUND: 404,
};
//# sourceMappingURL=auth.errors.js.map