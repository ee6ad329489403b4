/**
 * A condition true when the platform asks for the own webhook type (docs/webhooks.md#own-event-types):
 * its `extraWebhookTypes` names the type, its `<RESOURCE>.*` or `*`. For the outbox's write of an own
 * type, which checks it in its own statement (`platformIdParam` and `typeParam`, e.g. `'$2'`, `'$3'`).
 */
export function wantsExtraWebhookTypeSql(platformIdParam: string, typeParam: string): string {
  return `EXISTS (SELECT 1 FROM platform_configs
     WHERE platform_id = ${platformIdParam}
       AND extra_webhook_types && ARRAY[${typeParam}::text, split_part(${typeParam}::text, '.', 1) || '.*', '*'])`;
}
