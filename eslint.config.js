import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// Our folders as patterns (one matches any relative import through `src/<folder>/`) and the UI libraries.
const our = (...folders) => folders.map((f) => `**/${f}/**`)
const ui = ['lit', 'lit/*', '@lit/*', 'nanostores', '@nanostores/*']
const importRule = Object.entries({
  'src/contract/**': [...ui, ...our('core', 'sdk', 'stores', 'elements', 'server', 'embed')],
  'src/core/**': [...ui, ...our('sdk', 'stores', 'elements', 'server', 'embed')],
  'src/sdk/**': [...ui, ...our('stores', 'elements', 'server', 'embed')],
  'src/stores/**': ['lit', 'lit/*', '@lit/*', ...our('elements', 'server', 'embed')],
  'src/elements/**': our('server', 'embed'),
  'src/server/**': [...ui, ...our('sdk', 'stores', 'elements', 'embed')],
}).map(([folder, patterns]) => ({ files: [folder], rules: { 'no-restricted-imports': ['error', { patterns }] } }))

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
  // The dependency rule (docs/ARCHITECTURE.md "Layout and dependency rule"): imports point one way,
  // contract ← core ← sdk ← stores ← elements, and the server imports contract and core only. Each
  // folder's list names what it may not import: the folders above it (and the UI libraries below stores).
  ...importRule,
)
