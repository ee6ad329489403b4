import { VARIANTS } from '../external-accounts/variants/registry.js';
const ONE_OF_NAME = {
    create: 'ExternalAccountCreateInfoOneOf',
    response: 'ExternalAccountInfoOneOf',
};
const ref = (name) => `#/components/schemas/${name}`;
/** `AED_ACCOUNT` -> `Aed`, `BASE_WALLET` -> `BaseWallet`, `LIGHTNING` -> `Lightning`. */
function baseName(accountType) {
    return accountType
        .replace(/_ACCOUNT$/, '')
        .split('_')
        .map((part) => part.charAt(0) + part.slice(1).toLowerCase())
        .join('');
}
function schemaName(variant, direction) {
    return `${baseName(variant.accountType)}ExternalAccount${direction === 'create' ? 'CreateInfo' : 'Info'}`;
}
function ruleSchema(rule, strict) {
    switch (rule.kind) {
        case 'string': {
            const schema = { type: 'string' };
            if (rule.enum)
                schema.enum = [...rule.enum];
            if (rule.minLength !== undefined)
                schema.minLength = rule.minLength;
            if (rule.maxLength !== undefined)
                schema.maxLength = rule.maxLength;
            if (rule.pattern !== undefined)
                schema.pattern = rule.pattern;
            if (rule.format !== undefined)
                schema.format = rule.format;
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
function objectSchema(rule, strict) {
    const properties = {};
    const required = [];
    for (const [name, field] of Object.entries(rule.fields)) {
        properties[name] = ruleSchema(field, strict);
        if (field.required)
            required.push(name);
    }
    const schema = { type: 'object', properties };
    if (required.length)
        schema.required = required;
    if (strict)
        schema.additionalProperties = false;
    const groups = rule.groups.map((g) => `${g.exclusive ? 'Exactly one' : 'At least one'} of: ${g.groups.map((members) => members.join(' + ')).join(' | ')}${g.hint ? ` (${g.hint})` : ''}.`);
    if (groups.length)
        schema.description = groups.join(' ');
    return schema;
}
/** One variant's schema: the create rule (unknown members rejected), or the rendered response shape. */
function variantSchema(variant, direction) {
    const schema = objectSchema(variant.rule, direction === 'create');
    if (direction === 'response') {
        // renderAccountInfo: no platformAccountId (it is top-level), and bank types carry paymentRails.
        delete schema.properties?.platformAccountId;
        schema.required = schema.required?.filter((name) => name !== 'platformAccountId');
        if (variant.paymentRails) {
            schema.properties = { ...schema.properties, paymentRails: { type: 'array', items: { type: 'string' } } };
            schema.required = [...(schema.required ?? []), 'paymentRails'];
        }
    }
    return { ...schema, description: `accountType ${variant.accountType}. ${schema.description ?? ''}`.trim() };
}
/** The property schema of an `accountInfo` member: a reference to the discriminated oneOf. */
export function accountInfoProperty(direction) {
    return { allOf: [{ $ref: ref(ONE_OF_NAME[direction]) }] };
}
/** Every component the `accountInfo` properties refer to: the variants and the two discriminated unions. */
export function accountInfoComponents() {
    const components = {};
    for (const direction of ['create', 'response']) {
        const mapping = {};
        for (const variant of VARIANTS) {
            const name = schemaName(variant, direction);
            components[name] = variantSchema(variant, direction);
            mapping[variant.accountType] = ref(name);
        }
        components[ONE_OF_NAME[direction]] = {
            oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
            discriminator: { propertyName: 'accountType', mapping },
            description: direction === 'create'
                ? `One of the ${VARIANTS.length} variants, chosen by \`accountType\`.`
                : `One of the ${VARIANTS.length} variants, chosen by \`accountType\` (\`LIGHTNING_ACCOUNT\` is answered as \`LIGHTNING\`).`,
        };
    }
    return components;
}
//# sourceMappingURL=account-info-schemas.js.map