import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const clockMessage = 'Read the time from the injectable Clock (src/common/clock.ts)';
const ONE_CLOCK = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: `${clockMessage}, not new Date().` },
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: `${clockMessage}, not Date.now().`,
  },
  { selector: "CallExpression[callee.name='Date']", message: `${clockMessage}, not Date().` },
];
const tablesMessage = 'Platform settings tables belong to src/platform-config/: ask PlatformConfigService.';
const SETTINGS_TABLES = [
  { selector: 'Literal[value=/\\b(platform_configs|webhook_signing_keys)\\b/]', message: tablesMessage },
  { selector: 'TemplateElement[value.raw=/\\b(platform_configs|webhook_signing_keys)\\b/]', message: tablesMessage },
];

const SETTINGS_IMPORTS = {
  group: ['**/platform-config/platform-config.entity.js', '**/platform-config/webhook-keys.service.js'],
  message: 'Platform settings are read and written through PlatformConfigService.',
};
const CIPHER_IMPORTS = ['node:crypto', 'crypto'].map((name) => ({
  name,
  importNames: ['createCipheriv', 'createDecipheriv', 'Cipheriv', 'Decipheriv'],
  message: 'Secrets are sealed and opened by SecretBox (src/secrets/), the only place that encrypts.',
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // One clock: only src/common/clock.ts reads the time; everything else injects `Clock`.
    files: ['src/**/*.ts', 'test/**/*.ts', 'ormconfig.ts'],
    ignores: ['src/common/clock.ts', 'test/support/**'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_CLOCK] },
  },
  {
    // Secrets have one home: only src/secrets/ encrypts (the next block repeats this where it applies too).
    files: ['src/**/*.ts'],
    ignores: ['src/secrets/**'],
    rules: { 'no-restricted-imports': ['error', { paths: CIPHER_IMPORTS }] },
  },
  {
    // Platform settings have one owner: only src/platform-config/ touches their tables.
    files: ['src/**/*.ts'],
    ignores: ['src/common/clock.ts', 'src/platform-config/**', 'src/database/**'],
    rules: {
      'no-restricted-syntax': ['error', ...ONE_CLOCK, ...SETTINGS_TABLES],
      'no-restricted-imports': ['error', { paths: CIPHER_IMPORTS, patterns: [SETTINGS_IMPORTS] }],
    },
  },
  {
    files: ['src/secrets/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SETTINGS_IMPORTS] }] },
  },
  {
    // The ground floor knows no feature: src/errors/ imports nothing of the application's but itself.
    files: ['src/errors/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CIPHER_IMPORTS,
          patterns: [
            {
              group: ['../*'],
              message: 'src/errors/ names no area: areas add their codes in src/error-catalogue.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
