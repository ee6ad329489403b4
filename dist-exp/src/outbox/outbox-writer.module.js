var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { OutboxService } from './outbox.service.js';
/**
 * Only the outbox writer (`OutboxService.write`), for producers that the delivery side depends on
 * (platform config queues a TEST webhook; the worker reads platform settings): no import cycle.
 */
let OutboxWriterModule = class OutboxWriterModule {
};
OutboxWriterModule = __decorate([
    Module({ providers: [OutboxService], exports: [OutboxService] })
], OutboxWriterModule);
export { OutboxWriterModule };
//# sourceMappingURL=outbox-writer.module.js.map