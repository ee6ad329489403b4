var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { idPattern, parseId } from './ids.js';
/** Path parameter `<Type>:<uuid>` → the uuid; anything else is a 400 FieldError on the parameter. */
let IdPipe = class IdPipe {
    type;
    constructor(type) {
        this.type = type;
    }
    transform(value, metadata) {
        const uuid = parseId(this.type, value);
        if (uuid)
            return uuid;
        throw invalidInput([
            fieldError(metadata.data ?? 'id', `must be a ${this.type} id (${this.type}:<uuid>)`, {
                pattern: idPattern(this.type),
            }),
        ]);
    }
};
IdPipe = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [String])
], IdPipe);
export { IdPipe };
//# sourceMappingURL=id.pipe.js.map