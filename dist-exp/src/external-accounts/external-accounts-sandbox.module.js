var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { ExternalAccountsSandboxController } from './external-accounts-sandbox.controller.js';
import { ExternalAccountsModule } from './external-accounts.module.js';
/** `/sandbox/external-accounts/...`: AppModule mounts it only when SANDBOX=true. */
let ExternalAccountsSandboxModule = class ExternalAccountsSandboxModule {
};
ExternalAccountsSandboxModule = __decorate([
    Module({
        imports: [ExternalAccountsModule],
        controllers: [ExternalAccountsSandboxController],
    })
], ExternalAccountsSandboxModule);
export { ExternalAccountsSandboxModule };
//# sourceMappingURL=external-accounts-sandbox.module.js.map