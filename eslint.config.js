import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', '.vk-data/**', 'demo/dist/**', 'scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/sdk/**', 'src/contract/**', 'src/core/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['lit', 'lit/*', 'nanostores', '@nanostores/*', '**/server/**', '**/stores/**', '**/elements/**'] }],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['lit', 'lit/*', 'nanostores', '@nanostores/*', '**/sdk/**', '**/stores/**', '**/elements/**'] }],
    },
  },
)
