import { Injectable } from '@nestjs/common';
import { isAddress } from 'viem';
import { parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { parseDirectoryData } from '../config/directories.js';
import type { DirectoryData, InstitutionEntry, VaspEntry, WithdrawalFeeEntry } from '../config/directories.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { findOwned } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import type { FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { SHIPPED_DIRECTORY } from './directory-data.js';
import type {
  DiscoveriesQuery,
  DiscoveryView,
  EstimateCryptoWithdrawalFeeRequest,
  EstimateCryptoWithdrawalFeeResponse,
  ListVaspsQuery,
  VaspListResponse,
} from './directories.dto.js';

/** The networks whose addresses are EVM addresses (checked with viem's `isAddress`). */
const EVM_NETWORKS = new Set(['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA', 'ARBITRUM', 'OPTIMISM', 'AVALANCHE']);
/** Address shapes of the other networks this service knows (anything else: non-empty, no spaces). */
const ADDRESS_SHAPES: Record<string, RegExp> = {
  SOLANA: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  TRON: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  BITCOIN: /^((bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87}|[123mn][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  // A BOLT11 invoice or a Lightning address.
  LIGHTNING: /^(ln(bc|tb|bcrt)[02-9ac-hj-np-z0-9]+|[a-z0-9._+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+)$/i,
  SPARK: /^(sp|spt|sprt|sps|spl)1[02-9ac-hj-np-z]{8,}$/,
};

/**
 * The directories (docs/directories.md): the shipped data with DIRECTORY_EXTRA_FILE's entries
 * merged over it once, at start (an operator entry with the key of a shipped one replaces it:
 * `vaspName`; `country` + `currency` + `bankName`; `currency` + `cryptoNetwork`).
 */
@Injectable()
export class DirectoriesService {
  private readonly vasps: VaspEntry[];
  private readonly institutions: InstitutionEntry[];
  private readonly fees: Map<string, WithdrawalFeeEntry>;

  constructor(
    config: AppConfig,
    private readonly tx: TransactionService,
  ) {
    const shipped = parseDirectoryData(SHIPPED_DIRECTORY);
    const data = merge(shipped, config.directoryExtra);
    this.vasps = data.vasps.sort((a, b) => compare(a.vaspName, b.vaspName));
    this.institutions = data.institutions.sort(
      (a, b) =>
        compare(a.country, b.country) || compare(a.currency, b.currency) || compare(a.displayName, b.displayName),
    );
    this.fees = new Map(data.withdrawalFees.map((f) => [feeKey(f.currency, f.cryptoNetwork), f]));
  }

  /** `GET /vasps`: by name, paged; the cursor is the last name of the previous page. */
  listVasps(query: ListVaspsQuery): VaspListResponse {
    const limit = query.limit ?? 20;
    let start = 0;
    if (query.cursor !== undefined) {
      const after = decodeCursor(query.cursor);
      start = this.vasps.findIndex((v) => compare(v.vaspName, after) > 0);
      if (start < 0) start = this.vasps.length;
    }
    const page = this.vasps.slice(start, start + limit);
    const hasMore = start + limit < this.vasps.length;
    return {
      data: page.map((v) => ({ ...v })),
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(page[page.length - 1].vaspName) } : {}),
    };
  }

  /** `GET /discoveries`: the institutions of a country and/or currency (all without filters). */
  discoveries(query: DiscoveriesQuery): DiscoveryView[] {
    return this.institutions
      .filter(
        (i) =>
          (query.country === undefined || i.country === query.country) &&
          (query.currency === undefined || i.currency === query.currency),
      )
      .map((i) => ({ ...i }));
  }

  /**
   * `POST /crypto/estimate-withdrawal-fee`: the fee schedule of the currency on the network, for
   * the platform's internal account in that currency (404 for an unknown or another platform's
   * account). 400 names the field: a currency the account does not hold, a network the currency
   * is not withdrawable on, an address not of the network's shape, an amount not above the fee.
   */
  async estimateWithdrawalFee(
    platformId: string,
    body: EstimateCryptoWithdrawalFeeRequest,
  ): Promise<EstimateCryptoWithdrawalFeeResponse> {
    const accountUuid = parseId('InternalAccount', body.internalAccountId)!;
    const account = await findOwned(
      this.tx.manager,
      InternalAccountEntity,
      platformId,
      { id: accountUuid },
      () => new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${body.internalAccountId} not found`),
    );
    const errors: FieldError[] = [];
    if (account.currency !== body.currency)
      errors.push(fieldError('currency', `the internal account holds ${account.currency}, not ${body.currency}`));
    const fee = this.fees.get(feeKey(body.currency, body.cryptoNetwork));
    if (!fee) {
      const networks = [...this.fees.values()].filter((f) => f.currency === body.currency).map((f) => f.cryptoNetwork);
      errors.push(
        fieldError(
          'cryptoNetwork',
          networks.length === 0
            ? `${body.currency} has no withdrawal network here`
            : `${body.currency} is withdrawable on ${networks.sort().join(', ')}`,
        ),
      );
    }
    const addressProblem = checkAddress(body.cryptoNetwork, body.destinationAddress);
    if (addressProblem) errors.push(fieldError('destinationAddress', addressProblem));
    if (fee) {
      const totalFee = fee.networkFeeInCurrency + fee.applicationFee;
      if (body.amount <= totalFee)
        errors.push(fieldError('amount', `must be above the total fee (${totalFee} minor units of ${body.currency})`));
    }
    if (errors.length > 0) throw invalidInput(errors);
    const totalFee = fee!.networkFeeInCurrency + fee!.applicationFee;
    return {
      networkFee: fee!.networkFee,
      networkFeeAsset: fee!.networkFeeAsset,
      applicationFee: fee!.applicationFee,
      totalFee,
      netAmount: body.amount - totalFee,
    };
  }
}

/** The operator's entries over the shipped ones, by key (an equal key replaces). */
function merge(shipped: DirectoryData, extra: DirectoryData): DirectoryData {
  const by = <T>(items: T[], more: T[], key: (t: T) => string) => {
    const map = new Map(items.map((i) => [key(i), i]));
    for (const item of more) map.set(key(item), item);
    return [...map.values()];
  };
  return {
    vasps: by(shipped.vasps, extra.vasps, (v) => v.vaspName.toLowerCase()),
    institutions: by(shipped.institutions, extra.institutions, (i) => `${i.country}/${i.currency}/${i.bankName}`),
    withdrawalFees: by(shipped.withdrawalFees, extra.withdrawalFees, (f) => feeKey(f.currency, f.cryptoNetwork)),
  };
}

const feeKey = (currency: string, network: string) => `${currency}/${network}`;

/** Case-insensitive, then exact (a total order independent of the locale). */
function compare(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

const encodeCursor = (name: string) => Buffer.from(JSON.stringify({ v: name })).toString('base64url');

function decodeCursor(cursor: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v?: unknown } | null;
    if (typeof parsed?.v === 'string') return parsed.v;
  } catch {
    // fall through
  }
  throw invalidInput([fieldError('cursor', 'cursor is not a cursor this API returned')]);
}

/** Why `address` is not an address of `network`, or null. */
function checkAddress(network: string, address: string): string | null {
  if (/\s/.test(address)) return 'must not contain spaces';
  if (EVM_NETWORKS.has(network))
    return isAddress(address) ? null : `must be an EVM address (0x and 40 hex digits, checksummed if mixed case)`;
  const shape = ADDRESS_SHAPES[network];
  if (shape && !shape.test(address)) return `is not a ${network} address`;
  return null;
}
