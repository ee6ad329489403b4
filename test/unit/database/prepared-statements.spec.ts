import { preparesStatements } from '../../../src/database/transaction.service.js';

const pg = 'postgres://app@db.internal:5432/payments';
const embedded = `postgres://postgres:x@${encodeURIComponent('/tmp/payments-pglite-Ab12Cd')}/postgres`;

describe('named hot-path statements (DB_PREPARED_STATEMENTS)', () => {
  it('are on against PostgreSQL by default', () => {
    expect(preparesStatements({ DATABASE_URL: pg })).toBe(true);
  });

  it('are off behind a transaction-mode pooler (DATABASE_DIRECT_URL set) unless said otherwise', () => {
    expect(preparesStatements({ DATABASE_URL: pg, DATABASE_DIRECT_URL: pg })).toBe(false);
    expect(preparesStatements({ DATABASE_URL: pg, DATABASE_DIRECT_URL: pg, DB_PREPARED_STATEMENTS: true })).toBe(true);
    expect(preparesStatements({ DATABASE_URL: pg, DB_PREPARED_STATEMENTS: false })).toBe(false);
  });

  it('are never used on the embedded engine, whatever the setting (one session behind every connection)', () => {
    expect(preparesStatements({})).toBe(false);
    expect(preparesStatements({ DATABASE_URL: embedded, DB_PREPARED_STATEMENTS: true })).toBe(false);
  });
});
