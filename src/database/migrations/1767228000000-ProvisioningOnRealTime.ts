import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `cards.provisioning_due_at` is real time (src/common/schedules.ts). Before, a card issued on a
 * sandbox platform whose test clock had been advanced was scheduled at the platform's time, so the
 * worker (on real time) would only have claimed it once real time caught up: such a card still
 * PROCESSING is made due now, shifted back by its platform's offset (offsets only grow, so the
 * shifted time is never later than the real time it should have had).
 */
export class ProvisioningOnRealTime1767228000000 implements MigrationInterface {
  name = 'ProvisioningOnRealTime1767228000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE cards c
         SET provisioning_due_at = c.provisioning_due_at - s.offset_ms * interval '1 millisecond'
        FROM sandbox_clocks s
       WHERE s.platform_id = c.platform_id AND s.offset_ms > 0
         AND c.status = 'PROCESSING' AND c.provisioning_due_at IS NOT NULL`);
  }

  async down(): Promise<void> {
    // Nothing to undo: the shifted due times are the right ones on either version.
  }
}
