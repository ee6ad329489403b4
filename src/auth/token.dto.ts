import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray } from 'class-validator';
import { TimeRangeQuery } from '../common/time-range.js';
import { EnumField, StringField } from '../common/validation.js';
import { PERMISSIONS, Permission } from './api-token.entity.js';

export class ApiTokenCreateRequest {
  @StringField({
    minLength: 1,
    maxLength: 255,
    description: 'Name of the token to help identify it',
    example: 'Sandbox read-only',
  })
  name: string;

  @IsArray({ message: 'permissions must be an array' })
  @ArrayMinSize(1, { message: 'permissions must list at least one permission' })
  @EnumField(PERMISSIONS, { each: true, description: 'Permissions to grant' })
  permissions: Permission[];
}

export class ListTokensQuery extends TimeRangeQuery {
  @StringField({ required: false, maxLength: 255, description: 'Filter by token name' })
  name?: string;
}

export class ApiToken {
  @ApiProperty({ example: 'Token:019542f5-b3e7-1d02-0000-000000000001' })
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: Permission[];
  @ApiProperty({ description: 'HTTP Basic username' })
  clientId: string;
  @ApiPropertyOptional({ description: 'HTTP Basic password; returned once, on creation only' })
  clientSecret?: string;
  @ApiProperty({ format: 'date-time' })
  createdAt: string;
  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}
