var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray } from 'class-validator';
import { TimeRangeQuery } from '../common/time-range.js';
import { EnumField, StringField } from '../common/validation.js';
import { PERMISSIONS } from './api-token.entity.js';
export class ApiTokenCreateRequest {
    name;
    permissions;
}
__decorate([
    StringField({
        minLength: 1,
        maxLength: 255,
        description: 'Name of the token to help identify it',
        example: 'Sandbox read-only',
    }),
    __metadata("design:type", String)
], ApiTokenCreateRequest.prototype, "name", void 0);
__decorate([
    IsArray({ message: 'permissions must be an array' }),
    ArrayMinSize(1, { message: 'permissions must list at least one permission' }),
    EnumField(PERMISSIONS, { each: true, description: 'Permissions to grant' }),
    __metadata("design:type", Array)
], ApiTokenCreateRequest.prototype, "permissions", void 0);
export class ListTokensQuery extends TimeRangeQuery {
    name;
}
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Filter by token name' }),
    __metadata("design:type", String)
], ListTokensQuery.prototype, "name", void 0);
export class ApiToken {
    id;
    name;
    permissions;
    clientId;
    clientSecret;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ example: 'Token:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], ApiToken.prototype, "id", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], ApiToken.prototype, "name", void 0);
__decorate([
    ApiProperty({ enum: PERMISSIONS, isArray: true }),
    __metadata("design:type", Array)
], ApiToken.prototype, "permissions", void 0);
__decorate([
    ApiProperty({ description: 'HTTP Basic username' }),
    __metadata("design:type", String)
], ApiToken.prototype, "clientId", void 0);
__decorate([
    ApiPropertyOptional({ description: 'HTTP Basic password; returned once, on creation only' }),
    __metadata("design:type", String)
], ApiToken.prototype, "clientSecret", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], ApiToken.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], ApiToken.prototype, "updatedAt", void 0);
//# sourceMappingURL=token.dto.js.map