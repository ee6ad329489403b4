import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { idPattern, parseId } from './ids.js';

/** Path parameter `<Type>:<uuid>` → the uuid; anything else is a 400 FieldError on the parameter. */
@Injectable()
export class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly type: string) {}

  transform(value: string, metadata: ArgumentMetadata): string {
    const uuid = parseId(this.type, value);
    if (uuid) return uuid;
    throw invalidInput([
      fieldError(metadata.data ?? 'id', `must be a ${this.type} id (${this.type}:<uuid>)`, {
        pattern: idPattern(this.type),
      }),
    ]);
  }
}
