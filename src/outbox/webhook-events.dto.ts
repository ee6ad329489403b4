import { ApiProperty } from '@nestjs/swagger';
import { CreatedRangeQuery } from '../common/time-range.js';
import { EnumField } from '../common/validation.js';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_TYPES } from './webhook-types.js';
import type { WebhookEventStatus, WebhookType } from './webhook-types.js';

export class ListWebhookEventsQuery extends CreatedRangeQuery {
  @EnumField(WEBHOOK_TYPES, { required: false, description: 'Filter by webhook type' })
  type?: WebhookType;

  @EnumField(WEBHOOK_EVENT_STATUSES, { required: false, description: 'Filter by delivery status' })
  status?: WebhookEventStatus;
}

export class WebhookAttempt {
  @ApiProperty({ format: 'date-time' }) attemptedAt: string;
  @ApiProperty() durationMs: number;
  @ApiProperty({ nullable: true, type: Number, description: 'HTTP status; null when no response came' })
  responseStatus: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'First 1 KiB of the response body' })
  responseBody: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'e.g. timeout, ECONNREFUSED, blocked: private address' })
  error: string | null;
}

export class WebhookEvent {
  @ApiProperty({ example: 'Webhook:019542f5-b3e7-1d02-0000-000000000007', description: 'The envelope id' })
  id: string;
  @ApiProperty({ enum: WEBHOOK_TYPES }) type: WebhookType;
  @ApiProperty({ enum: WEBHOOK_EVENT_STATUSES }) status: WebhookEventStatus;
  @ApiProperty({ example: 'Card:019542f5-b3e7-1d02-0000-000000000010' }) aggregateId: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) deliveredAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Set while PENDING' })
  nextAttemptAt: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The envelope sent: {id, type, timestamp, data}',
  })
  payload: Record<string, unknown>;
  @ApiProperty({ type: [WebhookAttempt] }) attempts: WebhookAttempt[];
}

/** The reference's TestWebhookResponse. */
export class TestWebhookResponse {
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiProperty() response_status: number;
  @ApiProperty() response_body: string;
}
