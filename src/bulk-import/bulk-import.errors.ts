/** Error codes of the bulk customer import and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const BULK_IMPORT_ERRORS = {
  BULK_UPLOAD_JOB_NOT_FOUND: 404,
} as const;
