import type { ApiPropertyOptions, SchemaObject } from '@nestjs/swagger';
import type { FieldRule, ObjectRule } from '../external-accounts/variants/dsl.js';
import { VARIANTS } from '../external-accounts/variants/registry.js';
import type { VariantDefinition } from '../external-accounts/variants/types.js';

/**
 * The 49 `accountInfo` variants as OpenAPI schemas, generated from the same declarative rules the
 * validator walks (src/external-accounts/variants), so the document cannot drift from what the
 * service accepts. Names follow the reference: `UsdExternalAccountCreateInfo` (request) and
 * `UsdExternalAccountInfo` (response; wallets too: `BaseWalletExternalAccountCreateInfo` and
 * `BaseWalletExternalAccountInfo`, as the create shape has `platformAccountId`), gathered in the discriminated `ExternalAccountCreateInfoOneOf` and
 * `ExternalAccountInfoOneOf`.
 */
export type AccountInfoDirection = 'create' | 'response';

const ONE_OF_NAME: Record<AccountInfoDirection, string> = {
  create: 'ExternalAccountCreateInfoOneOf',
  response: 'ExternalAccountInfoOneOf',
};

const ref = (name: string) => `#/components/schemas/${name}`;

/** `AED_ACCOUNT` -> `Aed`, `BASE_WALLET` -> `BaseWallet`, `LIGHTNING` -> `Lightning`. */
function baseName(accountType: string): string {
  return accountType
    .replace(/_ACCOUNT$/, '')
    .split('_')
    .map((part) => part.charAt(0) + part.slice(1).toLowerCase())
    .join('');
}

function schemaName(variant: VariantDefinition, direction: AccountInfoDirection): string {
  return `${baseName(variant.accountType)}ExternalAccount${direction === 'create' ? 'CreateInfo' : 'Info'}`;
}

function ruleSchema(rule: FieldRule, strict: boolean): SchemaObject {
  switch (rule.kind) {
    case 'string': {
      const schema: SchemaObject = { type: 'string' };
      if (rule.enum) schema.enum = [...rule.enum];
      if (rule.minLength !== undefined) schema.minLength = rule.minLength;
      if (rule.maxLength !== undefined) schema.maxLength = rule.maxLength;
      if (rule.pattern !== undefined) schema.pattern = rule.pattern;
      if (rule.format !== undefined) schema.format = rule.format;
      return schema;
    }
    case 'object':
      return objectSchema(rule, strict);
    case 'union':
      return {
        oneOf: Object.values(rule.variants).map((variant) => objectSchema(variant, strict)),
        description: `One of these shapes, chosen by \`${rule.discriminator}\``,
      };
  }
}

function objectSchema(rule: ObjectRule, strict: boolean): SchemaObject {
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(rule.fields)) {
    properties[name] = ruleSchema(field, strict);
    if (field.required) required.push(name);
  }
  const schema: SchemaObject = { type: 'object', properties };
  if (required.length) schema.required = required;
  if (strict) schema.additionalProperties = false;
  const groups = rule.groups.map(
    (g) =>
      `${g.exclusive ? 'Exactly one' : 'At least one'} of: ${g.groups.map((members) => members.join(' + ')).join(' | ')}${g.hint ? ` (${g.hint})` : ''}.`,
  );
  if (groups.length) schema.description = groups.join(' ');
  return schema;
}

/** One variant's schema: the create rule (unknown members rejected), or the rendered response shape. */
function variantSchema(variant: VariantDefinition, direction: AccountInfoDirection): SchemaObject {
  const schema = objectSchema(variant.rule, direction === 'create');
  if (direction === 'response') {
    // renderAccountInfo: no platformAccountId (it is top-level), and bank types carry paymentRails.
    delete schema.properties?.platformAccountId;
    schema.required = schema.required?.filter((name: string) => name !== 'platformAccountId');
    if (variant.paymentRails) {
      schema.properties = { ...schema.properties, paymentRails: { type: 'array', items: { type: 'string' } } };
      schema.required = [...(schema.required ?? []), 'paymentRails'];
    }
  }
  return { ...schema, description: `accountType ${variant.accountType}. ${schema.description ?? ''}`.trim() };
}

/** The property schema of an `accountInfo` member: a reference to the discriminated oneOf. */
export function accountInfoProperty(direction: AccountInfoDirection): ApiPropertyOptions {
  return { allOf: [{ $ref: ref(ONE_OF_NAME[direction]) }] };
}

/** Every component the `accountInfo` properties refer to: the variants and the two discriminated unions. */
export function accountInfoComponents(): Record<string, SchemaObject> {
  const components: Record<string, SchemaObject> = {};
  for (const direction of ['create', 'response'] as const) {
    const mapping: Record<string, string> = {};
    for (const variant of VARIANTS) {
      const name = schemaName(variant, direction);
      components[name] = variantSchema(variant, direction);
      mapping[variant.accountType] = ref(name);
    }
    components[ONE_OF_NAME[direction]] = {
      oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
      discriminator: { propertyName: 'accountType', mapping },
      description:
        direction === 'create'
          ? `One of the ${VARIANTS.length} variants, chosen by \`accountType\`.`
          : `One of the ${VARIANTS.length} variants, chosen by \`accountType\` (\`LIGHTNING_ACCOUNT\` is answered as \`LIGHTNING\`).`,
    };
  }
  return components;
}
