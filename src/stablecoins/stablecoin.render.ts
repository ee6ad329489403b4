import { formatId } from '../common/ids.js';
import type { Stablecoin, StablecoinOperation, StablecoinProviderAccount } from './stablecoin.dto.js';
import type {
  StablecoinEntity,
  StablecoinOperationEntity,
  StablecoinProviderAccountEntity,
} from './stablecoin.entities.js';

const iso = (d: Date) => new Date(d).toISOString();

/** The link as the API shows it: never its client id's secret. */
export function renderProviderAccount(row: StablecoinProviderAccountEntity): StablecoinProviderAccount {
  return {
    id: formatId('StablecoinProviderAccount', row.id),
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    providerEnvironment: row.providerEnvironment,
    status: row.status,
    ...(row.lastVerifiedAt ? { lastVerifiedAt: iso(row.lastVerifiedAt) } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function renderStablecoin(row: StablecoinEntity): Stablecoin {
  return {
    id: formatId('Stablecoin', row.id),
    name: row.name,
    symbol: row.symbol,
    baseCurrency: row.baseCurrency,
    network: row.network,
    decimals: row.decimals,
    issuanceStatus: row.issuanceStatus,
    gridOperationsStatus: row.gridOperationsStatus,
    networkTokenIdentifier: row.networkTokenIdentifier,
    // Once ENABLED the coin is a Grid currency, under its symbol.
    ...(row.gridOperationsStatus === 'ENABLED' ? { currency: row.symbol } : {}),
    provider: row.provider,
    stablecoinProviderAccountId: formatId('StablecoinProviderAccount', row.providerAccountId),
    providerEnvironment: row.providerEnvironment,
    providerTokenIdentifier: row.providerTokenIdentifier,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function renderOperation(
  row: StablecoinOperationEntity,
  coin: Pick<StablecoinEntity, 'provider' | 'providerEnvironment'>,
): StablecoinOperation {
  return {
    id: formatId('StablecoinOperation', row.id),
    stablecoinId: formatId('Stablecoin', row.stablecoinId),
    operationType: row.operationType,
    status: row.status,
    amount: String(row.amount),
    provider: coin.provider,
    providerEnvironment: coin.providerEnvironment,
    stablecoinProviderAccountId: formatId('StablecoinProviderAccount', row.providerAccountId),
    source: row.source,
    ...(row.fundingInstructions ? { fundingInstructions: row.fundingInstructions } : {}),
    destination: row.destination,
    ...(row.estimatedDelivery ? { estimatedDelivery: row.estimatedDelivery } : {}),
    ...(row.expiresAt ? { expiresAt: iso(row.expiresAt) } : {}),
    ...(row.providerStatus ? { providerStatus: row.providerStatus } : {}),
    ...(row.failureReason ? { failureReason: row.failureReason } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
