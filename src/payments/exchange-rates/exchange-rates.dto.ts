import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsOptional, IsString } from 'class-validator';
import { IntField, StringField } from '../../common/validation.js';
import { CurrencyView } from '../../customers/internal-account.dto.js';
import { PAYMENT_RAILS } from '../quotes/quote.dto.js';

/** `GET /exchange-rates` (reference getExchangeRates). */
export class ExchangeRatesQuery {
  @StringField({ required: false, pattern: /^[A-Z]{3,5}$/, format: 'currency code' })
  sourceCurrency?: string;

  @ApiPropertyOptional({ type: [String], description: 'Repeatable' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: '$property must be a list' })
  @IsString({ each: true, message: '$property must be currency codes' })
  destinationCurrency?: string[];

  @IntField({ min: 0, max: 9_000_000_000_000_000, required: false, fromQuery: true })
  sendingAmount?: number;
}

export class ExchangeRateFeesView {
  @ApiProperty({ type: 'integer' }) fixed: number;
  @ApiProperty({ type: 'integer' }) total: number;
}

/** The reference's ExchangeRate. */
export class ExchangeRateView {
  @ApiProperty({ type: CurrencyView }) sourceCurrency: CurrencyView;
  @ApiProperty({ type: 'integer' }) sendingAmount: number;
  @ApiProperty({ type: 'integer' }) minSendingAmount: number;
  @ApiProperty({ type: 'integer' }) maxSendingAmount: number;
  @ApiProperty({ type: CurrencyView }) destinationCurrency: CurrencyView;
  @ApiProperty({ enum: PAYMENT_RAILS }) destinationPaymentRail: string;
  @ApiProperty({ type: 'integer' }) receivingAmount: number;
  @ApiProperty() exchangeRate: number;
  @ApiProperty({ type: ExchangeRateFeesView }) fees: ExchangeRateFeesView;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ExchangeRateListView {
  @ApiProperty({ type: [ExchangeRateView] }) data: ExchangeRateView[];
}
