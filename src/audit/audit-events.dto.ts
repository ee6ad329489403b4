import { ApiProperty } from '@nestjs/swagger';
import { CreatedRangeQuery } from '../common/time-range.js';
import { StringField } from '../common/validation.js';

export class ListAuditEventsQuery extends CreatedRangeQuery {
  @StringField({
    required: false,
    maxLength: 128,
    pattern: /^(system|[A-Za-z]+:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/,
    format: 'actor id (Token:<uuid>, Agent:<uuid> or system)',
    description: 'Events of this actor: `Token:<uuid>`, `Agent:<uuid>` or `system`',
  })
  actorId?: string;

  @StringField({
    required: false,
    maxLength: 100,
    pattern: /^[A-Za-z][A-Za-z0-9:_-]{0,99}$/,
    format: 'operationId',
    description: "Events of this operation (the route's operationId, e.g. `updateCard`)",
  })
  action?: string;

  @StringField({
    required: false,
    maxLength: 128,
    pattern: /^[A-Za-z0-9:._-]{1,128}$/,
    format: 'resource id',
    description: 'Events naming this resource (e.g. `Card:<uuid>`)',
  })
  resourceId?: string;
}

export class AuditActor {
  @ApiProperty({ enum: ['api_token', 'agent', 'system', 'anonymous'] }) type: string;
  @ApiProperty({ nullable: true, type: String, example: 'Token:019542f5-b3e7-1d02-0000-000000000001' })
  id: string | null;
}

export class AuditOutcome {
  @ApiProperty({ description: 'HTTP status answered (0: a CLI command)' }) status: number;
  @ApiProperty({ nullable: true, type: String, description: 'The error code answered, null on success' })
  code: string | null;
}

export class AuditEvent {
  @ApiProperty({ example: 'AuditEvent:019542f5-b3e7-1d02-0000-000000000007' }) id: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: AuditActor }) actor: AuditActor;
  @ApiProperty({ example: 'updateCard', description: "The route's operationId (or `cli:<command>`)" })
  action: string;
  @ApiProperty({ type: [String], description: 'Resources named by the call and changed by it' })
  resourceIds: string[];
  @ApiProperty({ type: AuditOutcome }) outcome: AuditOutcome;
  @ApiProperty({ nullable: true, type: String }) requestId: string | null;
  @ApiProperty({ nullable: true, type: String }) sourceAddress: string | null;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({ type: [String], description: 'Names of the body members of a change (never values)' })
  changedFields: string[];
  @ApiProperty({
    description:
      'How many identical refusals this event stands for (refusals are counted per window: createdAt is the first, lastSeenAt the last); 1 for any other event',
  })
  count: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'A counted refusal: the last one' })
  lastSeenAt: string | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "Position in the platform's hash chain; null until the event is sealed (within about a second)",
  })
  sequence: number | null;
  @ApiProperty({ nullable: true, type: String, description: "The chain's previous event's hash (null until sealed)" })
  previousHash: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'sha256 of previousHash and the canonical event; null until sealed',
  })
  hash: string | null;
}
