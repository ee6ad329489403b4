var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { EnumField, IntField, MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { KYC_STATUSES } from './customer.types.js';
export class SandboxKycRequest {
    kycStatus;
}
__decorate([
    EnumField(KYC_STATUSES, { description: 'The KYC (KYB for a business) status to set' }),
    __metadata("design:type", String)
], SandboxKycRequest.prototype, "kycStatus", void 0);
/** Reference SandboxFundRequest; the issue sets the range (1 to 9007199254740991). */
export class SandboxFundRequest {
    amount;
}
__decorate([
    IntField({
        min: 1,
        max: MAX_SAFE_MINOR_UNITS,
        description: "Amount to add, in the smallest unit of the account's currency (e.g. cents)",
    }),
    __metadata("design:type", Number)
], SandboxFundRequest.prototype, "amount", void 0);
//# sourceMappingURL=customers-sandbox.dto.js.map