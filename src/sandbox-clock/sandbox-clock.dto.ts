import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../common/pagination.js';
import { IntField, StringField } from '../common/validation.js';

/** Most a clock moves in one advance. */
export const MAX_ADVANCE_DAYS = 400;
export const MAX_ADVANCE_SECONDS = MAX_ADVANCE_DAYS * 86_400;

/** An ISO 8601 date-time with its offset (`Z` or `±hh:mm`), to the second or finer. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** `POST /sandbox/clock/advance`: exactly one of `to` and `seconds`. */
export class SandboxClockAdvanceRequest {
  @StringField({
    required: false,
    maxLength: 64,
    pattern: DATE_TIME,
    format: 'date-time',
    description:
      "The platform's new time (ISO 8601 UTC): later than its current time, at most 400 days ahead. Not with `seconds`.",
    example: '2026-12-01T00:00:00Z',
  })
  to?: string;

  @IntField({
    min: 1,
    max: MAX_ADVANCE_SECONDS,
    required: false,
    description: 'How many seconds to move the clock forward (at most 400 days). Not with `to`.',
  })
  seconds?: number;
}

/** A platform's test clock. */
export class SandboxClock {
  @ApiProperty({ format: 'date-time', description: "The platform's current time (real time plus the offset)" })
  time: string;

  @ApiProperty({ description: 'How many whole seconds the platform is ahead of real time (0: never advanced)' })
  offsetSeconds: number;
}

/** One recorded advance. */
export class SandboxClockAdvance {
  @ApiProperty({ example: 'SandboxClockAdvance:019542f5-b3e7-1d02-0000-000000000001' })
  id: string;

  @ApiProperty({ format: 'date-time', description: "The platform's time before the advance" })
  from: string;

  @ApiProperty({ format: 'date-time', description: "The platform's time after it" })
  to: string;

  @ApiProperty({ example: 'Token:019542f5-b3e7-1d02-0000-000000000001', description: 'The API token that advanced it' })
  tokenId: string;

  @ApiProperty({ format: 'date-time', description: 'When it was advanced, in real time' })
  createdAt: string;
}

export class ListSandboxClockAdvancesQuery extends PageQuery {}
