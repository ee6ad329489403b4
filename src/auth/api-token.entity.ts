import { Column, Entity, PrimaryColumn } from 'typeorm';

export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];

@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('text')
  name: string;

  @Column('text', { array: true })
  permissions: Permission[];

  /** The HTTP Basic username: opaque, no colon. */
  @Column('text', { name: 'client_id' })
  clientId: string;

  /** SHA-256 of the 256-bit random secret; the secret itself is never stored. */
  @Column('bytea', { name: 'secret_hash' })
  secretHash: Buffer;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
