import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's own webhook event types (outside the reference's closed `WebhookType` list) a
 * platform asked for (`extraWebhookTypes` of PATCH /config, docs/webhooks.md#own-event-types):
 * full types, `<RESOURCE>.*` or `*`. Empty: the platform receives the reference's types only.
 */
export class ExtraWebhookTypes1767231300000 implements MigrationInterface {
  name = 'ExtraWebhookTypes1767231300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_configs ADD COLUMN extra_webhook_types text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_configs DROP COLUMN extra_webhook_types`);
  }
}
