/**
 * `EXTERNAL_ACCOUNT.STATUS_UPDATED` (reference `ExternalAccountStatusWebhook`): the account as the
 * API renders it, the account its aggregate. Sent on a transition between statuses only: a new
 * account's first status is in its 201 response, as the reference describes the event.
 */
export function externalAccountStatusUpdated(platformId, account) {
    return { platformId, type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', aggregateId: account.id, data: { ...account } };
}
//# sourceMappingURL=external-account-events.js.map