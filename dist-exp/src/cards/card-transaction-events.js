/**
 * `CARD_TRANSACTION.<status>`: the card transaction as the API renders it is the data, the
 * transaction its aggregate (its events are delivered in order).
 */
export function cardTransactionEvent(platformId, txn) {
    return { platformId, type: `CARD_TRANSACTION.${txn.status}`, aggregateId: txn.id, data: txn };
}
//# sourceMappingURL=card-transaction-events.js.map