import { formatId } from '../common/ids.js';
import { renderAccountInfo } from './variants/index.js';
/** The reference's ExternalAccount; accountInfo in its response variant (ExternalAccountInfoOneOf). */
export function renderExternalAccount(row) {
    const view = {
        id: formatId('ExternalAccount', row.id),
        customerId: row.customerId === null ? null : formatId('Customer', row.customerId),
        status: row.status,
        currency: row.currency,
        defaultUmaDepositAccount: row.defaultUmaDepositAccount,
        beneficiaryVerificationStatus: row.beneficiaryVerificationStatus,
        accountInfo: renderAccountInfo(row.accountInfo),
    };
    if (row.platformAccountId !== null)
        view.platformAccountId = row.platformAccountId;
    if (row.ownershipType !== null)
        view.ownershipType = row.ownershipType;
    if (row.beneficiaryVerifiedData !== null)
        view.beneficiaryVerifiedData = row.beneficiaryVerifiedData;
    return view;
}
//# sourceMappingURL=external-account.render.js.map