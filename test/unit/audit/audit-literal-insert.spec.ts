import { PGlite } from '@electric-sql/pglite';
import { auditLiteralInsert, auditParameters, AUDIT_INSERT_SQL } from '../../../src/audit/audit-insert.js';
import type { AuditRecord } from '../../../src/audit/audit-record.js';

/**
 * The audit event sent in COMMIT's message has its values inlined (no parameters there): every
 * value must come back exactly as the parameterised insert would store it, whatever it contains.
 */
const record = (over: Partial<AuditRecord> = {}): AuditRecord => ({
  id: '0190a0a0-0000-7000-8000-000000000001',
  platformId: '0190a0a0-0000-7000-8000-000000000002',
  createdAt: new Date('2026-11-26T10:00:00.123Z'),
  actorType: 'api_token',
  actorId: 'Token:0190a0a0-0000-7000-8000-000000000003',
  action: 'createCustomer',
  resourceIds: ['Customer:0190a0a0-0000-7000-8000-000000000004'],
  status: 201,
  errorCode: null,
  requestId: 'req-1',
  sourceAddress: '127.0.0.1',
  userAgent: 'agent',
  changedFields: ['fullName'],
  ...over,
});

const TABLE = `CREATE TABLE audit_events (id uuid, platform_id uuid, created_at timestamptz, actor_type text,
  actor_id text, action text, resource_ids text[], status int, error_code text, request_id text,
  source_address text, user_agent text, changed_fields text[], chain uuid, digest text, count int,
  last_seen timestamptz)`;

let db: PGlite;
beforeAll(async () => {
  db = new PGlite();
  await db.exec(TABLE);
});
afterAll(() => db.close());

async function storedBothWays(r: AuditRecord): Promise<[unknown, unknown]> {
  await db.exec('DELETE FROM audit_events');
  const parameters = auditParameters(r);
  await db.exec(auditLiteralInsert(parameters));
  await db.query(
    AUDIT_INSERT_SQL,
    parameters.map((p) => (p === r.id ? '0190a0a0-0000-7000-8000-0000000000ff' : p)),
  );
  const { rows } = await db.query<Record<string, unknown>>('SELECT * FROM audit_events ORDER BY id');
  const [a, b] = rows.map(({ id: _id, ...rest }) => rest);
  return [a, b];
}

describe('auditLiteralInsert', () => {
  it('stores what the parameterised insert stores', async () => {
    const [literal, bound] = await storedBothWays(record());
    expect(literal).toEqual(bound);
  });

  it('quotes, backslashes, a statement terminator and a comment in a value stay values', async () => {
    const hostile = "O'Brien \\ back\\slash'); DROP TABLE audit_events; --";
    const r = record({ userAgent: hostile, requestId: "'", resourceIds: ["a'b", 'c\\d'], changedFields: [] });
    const [literal, bound] = await storedBothWays(r);
    expect(literal).toEqual(bound);
    expect((literal as { user_agent: string }).user_agent).toBe(hostile);
    expect((literal as { changed_fields: string[] }).changed_fields).toEqual([]);
  });

  it('nulls, a counted refusal (count, last seen) and the unattributed chain', async () => {
    const r = record({
      platformId: null,
      actorId: null,
      userAgent: null,
      count: 7,
      lastSeen: new Date('2026-11-26T10:00:09Z'),
    });
    const [literal, bound] = await storedBothWays(r);
    expect(literal).toEqual(bound);
  });

  it('refuses a value it has no literal form for (never guesses)', () => {
    expect(() => auditLiteralInsert([1.5])).toThrow(TypeError);
    expect(() => auditLiteralInsert([{}])).toThrow(TypeError);
  });
});
