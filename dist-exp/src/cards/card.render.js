import { formatId } from '../common/ids.js';
const limit = (value) => (value === null ? null : Number(value));
/** The API's Card from a `cards` row (also the `data` of `CARD.STATUS_CHANGE`). */
export function renderCard(row) {
    const card = {
        id: formatId('Card', row.id),
        customerId: formatId('Customer', row.customerId),
        platformCardId: row.platformCardId,
        status: row.status,
        form: row.form,
        fundingSource: formatId('InternalAccount', row.fundingSourceId),
        cardCapabilities: row.cardCapabilities,
        maxSpendPerTransaction: limit(row.maxSpendPerTransaction),
        maxSpendPerDay: limit(row.maxSpendPerDay),
        maxTransactionsPerDay: limit(row.maxTransactionsPerDay),
        currency: row.currency,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
    };
    if (row.statusReason !== null)
        card.statusReason = row.statusReason;
    if (row.brand !== null)
        card.brand = row.brand;
    if (row.last4 !== null)
        card.last4 = row.last4;
    if (row.expMonth !== null)
        card.expMonth = row.expMonth;
    if (row.expYear !== null)
        card.expYear = row.expYear;
    if (row.processorRef !== null)
        card.processorRef = row.processorRef;
    if (row.issuerRef !== null)
        card.issuerRef = row.issuerRef;
    return card;
}
//# sourceMappingURL=card.render.js.map