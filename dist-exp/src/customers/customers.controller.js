var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiExtraModels, ApiOkResponse, ApiResponse, ApiOperation, ApiTags, getSchemaPath, } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { BusinessCustomer, BusinessCustomerCreateRequest, BusinessCustomerUpdateRequest, IndividualCustomer, IndividualCustomerCreateRequest, IndividualCustomerUpdateRequest, ListCustomersQuery, } from './customer.dto.js';
import { CustomersService } from './customers.service.js';
const oneOf = (individual, business) => ({
    oneOf: [{ $ref: getSchemaPath(individual) }, { $ref: getSchemaPath(business) }],
    discriminator: {
        propertyName: 'customerType',
        mapping: { INDIVIDUAL: getSchemaPath(individual), BUSINESS: getSchemaPath(business) },
    },
});
/** A customer response: individual or business, by `customerType`. */
export const CUSTOMER = oneOf(IndividualCustomer, BusinessCustomer);
let CustomersController = class CustomersController {
    customers;
    constructor(customers) {
        this.customers = customers;
    }
    /** The body is discriminated by `customerType`: the service validates the matching variant. */
    create(p, body) {
        return this.customers.create(p.platformId, body);
    }
    list(p, query) {
        return this.customers.list(p.platformId, query);
    }
    get(p, customerId) {
        return this.customers.get(p.platformId, customerId);
    }
    update(p, customerId, body) {
        return this.customers.update(p.platformId, customerId, body);
    }
    /** Soft delete; answers 200 with the deleted customer (reference), 410 CUSTOMER_DELETED the second time. */
    remove(p, customerId) {
        return this.customers.remove(p.platformId, customerId);
    }
};
__decorate([
    ApiOperation({ summary: 'Add a new customer', operationId: 'createCustomer' }),
    ApiErrors(409),
    Post(),
    RequirePermission('MANAGE'),
    Idempotent(),
    ApiBody({ schema: oneOf(IndividualCustomerCreateRequest, BusinessCustomerCreateRequest) }),
    ApiResponse({ status: 201, schema: CUSTOMER }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "create", null);
__decorate([
    Get(),
    ApiOkResponse({
        schema: {
            type: 'object',
            required: ['data', 'hasMore', 'totalCount'],
            properties: {
                data: { type: 'array', items: CUSTOMER },
                hasMore: { type: 'boolean' },
                nextCursor: { type: 'string' },
                totalCount: { type: 'integer' },
            },
        },
    }),
    ApiOperation({ summary: 'List customers', operationId: 'listCustomers' }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListCustomersQuery]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "list", null);
__decorate([
    ApiOperation({ summary: 'Get customer by ID', operationId: 'getCustomerById' }),
    Get(':customerId'),
    ApiOkResponse({ schema: CUSTOMER }),
    __param(0, CurrentPlatform()),
    __param(1, Param('customerId', new IdPipe('Customer'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "get", null);
__decorate([
    ApiOperation({ summary: 'Update customer by ID', operationId: 'updateCustomerById' }),
    ApiErrors(409, 410),
    Patch(':customerId'),
    RequirePermission('MANAGE'),
    ApiBody({ schema: oneOf(IndividualCustomerUpdateRequest, BusinessCustomerUpdateRequest) }),
    ApiOkResponse({ schema: CUSTOMER }),
    __param(0, CurrentPlatform()),
    __param(1, Param('customerId', new IdPipe('Customer'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, Object]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "update", null);
__decorate([
    ApiOperation({ summary: 'Delete customer by ID', operationId: 'deleteCustomerById' }),
    ApiErrors(410),
    Delete(':customerId'),
    RequirePermission('MANAGE'),
    ApiOkResponse({ schema: CUSTOMER }),
    __param(0, CurrentPlatform()),
    __param(1, Param('customerId', new IdPipe('Customer'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], CustomersController.prototype, "remove", null);
CustomersController = __decorate([
    ApiTags('Customers'),
    ApiBasicAuth('BasicAuth'),
    ApiExtraModels(IndividualCustomer, BusinessCustomer, IndividualCustomerCreateRequest, BusinessCustomerCreateRequest, IndividualCustomerUpdateRequest, BusinessCustomerUpdateRequest),
    Controller('customers'),
    __metadata("design:paramtypes", [CustomersService])
], CustomersController);
export { CustomersController };
//# sourceMappingURL=customers.controller.js.map