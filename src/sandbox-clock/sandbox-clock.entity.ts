import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One advance of a platform's test clock (`GET /sandbox/clock/advances`). */
@Entity('sandbox_clock_advances')
export class SandboxClockAdvanceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** The API token that advanced it. */
  @Column('uuid', { name: 'token_id' })
  tokenId: string;

  /** The platform's time just before the advance. */
  @Column('timestamptz', { name: 'from_time' })
  fromTime: Date;

  /** The platform's time just after it. */
  @Column('timestamptz', { name: 'to_time' })
  toTime: Date;

  /** Real time of the advance. */
  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
