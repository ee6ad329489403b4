import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A tenant: the API client that owns every other resource. */
@Entity('platforms')
export class PlatformEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
