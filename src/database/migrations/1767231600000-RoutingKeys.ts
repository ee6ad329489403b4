import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `routing_keys` (issue 49): the platform of a lookup that starts from an opaque value (a console
 * session cookie, an agent access token, a device code, a KYC link token, an UMA invitation code,
 * the receiver address of an inbound UMA request, the sender's transaction a receiver's decision
 * names), keyed by the SHA-256 of that value. A reference
 * table (src/database/distribution.json): read first, without a platform, then the real lookup
 * pins `platform_id` and goes to one shard. Written in the transaction that writes the row it
 * routes (src/database/routing-keys.ts). The existing rows are routed here.
 */
export class RoutingKeys1767231600000 implements MigrationInterface {
  name = 'RoutingKeys1767231600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE routing_keys (
        kind text NOT NULL,
        key_hash bytea NOT NULL,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        PRIMARY KEY (kind, key_hash, platform_id)
      )`);
    // A secret (a session id, a token, a code) routes to one platform: unique across platforms,
    // which is also how a new device code or invitation code is known not to collide.
    await q.query(
      `CREATE UNIQUE INDEX routing_keys_unique ON routing_keys (kind, key_hash) WHERE kind <> 'uma_address'`,
    );
    await q.query(`
      INSERT INTO routing_keys (kind, key_hash, platform_id)
      SELECT 'console_session', id_hash, platform_id FROM console_sessions
      UNION SELECT 'agent_access_token', token_hash, platform_id FROM agent_access_tokens
      UNION SELECT 'agent_device_code', code_hash, platform_id FROM agent_device_codes
      UNION SELECT 'kyc_link', decode(token_hash, 'hex'), platform_id FROM kyc_links
      UNION SELECT 'uma_invitation', sha256(convert_to(code, 'UTF8')), platform_id FROM uma_invitations
      UNION SELECT 'uma_payment', sha256(convert_to(transaction_id::text, 'UTF8')), platform_id FROM uma_payments
      UNION SELECT 'uma_address', sha256(convert_to(lower(uma_address), 'UTF8')), platform_id
              FROM customers WHERE NOT is_deleted`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE routing_keys`);
  }
}
