import nx from '@nx/eslint-plugin';

/**
 * Lint rules that catch real bugs: unawaited promises, promises where a callback is expected,
 * switches that miss a case, and imports across app boundaries (apps depend on libs only).
 */
export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '.tools', '.data', 'tmp', 'coverage', '**/jest.config.js', 'jest.preset.js'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
          ],
        },
      ],
    },
  },
];
