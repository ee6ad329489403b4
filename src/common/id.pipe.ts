import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
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
      {
        field: metadata.data ?? 'id',
        constraint: { pattern: idPattern(this.type) },
        message: `must be a ${this.type} id (${this.type}:<uuid>)`,
      },
    ]);
  }
}
