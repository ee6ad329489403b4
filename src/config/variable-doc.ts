/** How one environment variable is documented (docs/configuration.md is generated from these). */
export interface VariableDoc {
  /** What the variable does (markdown; links are relative to docs/). */
  description: string;
  /** How to show the default when it is not a plain value of the class (computed, or off when unset). */
  default?: string;
  /** What the variable accepts, in words, when its validator is a custom one the generator cannot read. */
  allowed?: string;
}

const DOCS = new Map<string, VariableDoc>();

/** Documents a variable of the config class, beside the validators that read it. */
export function Doc(description: string, options: Omit<VariableDoc, 'description'> = {}): PropertyDecorator {
  return (_target, property) => {
    DOCS.set(String(property), { description, ...options });
  };
}

/** Every documented variable in declaration order. */
export function variableDocs(): ReadonlyMap<string, VariableDoc> {
  return DOCS;
}
