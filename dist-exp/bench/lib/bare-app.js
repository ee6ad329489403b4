var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
let ConstantController = class ConstantController {
    constant() {
        return { status: 'ok' };
    }
};
__decorate([
    Get('constant'),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", void 0)
], ConstantController.prototype, "constant", null);
ConstantController = __decorate([
    Controller()
], ConstantController);
let BareModule = class BareModule {
};
BareModule = __decorate([
    Module({ controllers: [ConstantController] })
], BareModule);
/** The framework floor: a bare NestJS Express app answering a constant JSON, in this process. */
export async function startBareApp() {
    const app = await NestFactory.create(BareModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address();
    return { url: `http://127.0.0.1:${port}/constant`, app };
}
//# sourceMappingURL=bare-app.js.map