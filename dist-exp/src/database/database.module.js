var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var DatabaseModule_1;
import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source.js';
import { TransactionService } from './transaction.service.js';
let DatabaseModule = DatabaseModule_1 = class DatabaseModule {
    static forRoot(url, poolSize) {
        return {
            module: DatabaseModule_1,
            imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url, poolSize), retryAttempts: 0 })],
            providers: [TransactionService],
            exports: [TransactionService],
        };
    }
};
DatabaseModule = DatabaseModule_1 = __decorate([
    Global(),
    Module({})
], DatabaseModule);
export { DatabaseModule };
//# sourceMappingURL=database.module.js.map