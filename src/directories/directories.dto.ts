import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../common/pagination.js';
import { IdField, IntField, MAX_SAFE_MINOR_UNITS, StringField } from '../common/validation.js';

/** `GET /vasps` (reference listVasps): `limit` (1 to 100, default 20) and `cursor`. */
export class ListVaspsQuery extends PageQuery {}

/** The reference's Vasp. */
export class VaspView {
  @ApiProperty({ example: 'Kraken', description: 'Pass as `vaspName` when declaring a VASP-hosted counterparty' })
  vaspName: string;
  @ApiPropertyOptional({ format: 'uri', example: 'https://www.kraken.com' }) url?: string;
}

/** The reference's VaspListResponse. */
export class VaspListResponse {
  @ApiProperty({ type: [VaspView] }) data: VaspView[];
  @ApiProperty() hasMore: boolean;
  @ApiPropertyOptional({ description: 'Present only when hasMore is true' }) nextCursor?: string;
}

/** `GET /discoveries` (reference getDiscoveries): both filters optional. */
export class DiscoveriesQuery {
  @StringField({
    required: false,
    pattern: /^[A-Z]{2}$/,
    format: 'ISO 3166-1 alpha-2',
    description: 'Country code, upper case (e.g. PH)',
    example: 'PH',
  })
  country?: string;

  @StringField({
    required: false,
    pattern: /^[A-Z]{3,5}$/,
    format: 'currency code',
    description: 'ISO 4217 currency code, upper case (e.g. PHP)',
    example: 'PHP',
  })
  currency?: string;
}

/** One item of the reference's DiscoveryListResponse. */
export class DiscoveryView {
  @ApiProperty({ description: 'Pass as `bankName` when creating an external account' }) bankName: string;
  @ApiProperty() displayName: string;
  @ApiProperty({ example: 'PH' }) country: string;
  @ApiProperty({ example: 'PHP' }) currency: string;
}

/** The reference's DiscoveryListResponse. */
export class DiscoveryListResponse {
  @ApiProperty({ type: [DiscoveryView] }) data: DiscoveryView[];
}

/** The reference's EstimateCryptoWithdrawalFeeRequest. */
export class EstimateCryptoWithdrawalFeeRequest {
  @IdField('InternalAccount', { description: 'The crypto internal account to withdraw from' })
  internalAccountId: string;

  @StringField({
    pattern: /^[A-Z]{3,5}$/,
    format: 'currency code',
    description: 'The asset (e.g. USDC)',
    example: 'USDC',
  })
  currency: string;

  @StringField({
    pattern: /^[A-Z][A-Z0-9_]{1,31}$/,
    format: 'network name',
    description: 'The blockchain network (e.g. SOLANA, ETHEREUM, BASE, POLYGON, TRON, BITCOIN, LIGHTNING, SPARK)',
    example: 'SOLANA',
  })
  cryptoNetwork: string;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, description: 'Amount to withdraw, minor units of the currency' })
  amount: number;

  @StringField({
    minLength: 1,
    maxLength: 512,
    description: 'The blockchain address (or invoice) to withdraw to',
    example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  })
  destinationAddress: string;
}

/** The reference's EstimateCryptoWithdrawalFeeResponse. */
export class EstimateCryptoWithdrawalFeeResponse {
  @ApiProperty({ type: 'integer', description: 'Network (gas) fee in minor units of networkFeeAsset' })
  networkFee: number;
  @ApiProperty({ example: 'SOL' }) networkFeeAsset: string;
  @ApiProperty({ type: 'integer', description: 'Application fee, minor units of the withdrawal currency' })
  applicationFee: number;
  @ApiProperty({
    type: 'integer',
    description: 'The network fee in the withdrawal currency plus the application fee (minor units)',
  })
  totalFee: number;
  @ApiProperty({ type: 'integer', description: 'What the recipient receives: amount minus totalFee' })
  netAmount: number;
}
