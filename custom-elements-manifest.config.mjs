/**
 * custom-elements.json from the elements' JSDoc (`@summary`, `@event`, `@slot`, `@csspart`, `@cssproperty`,
 * property docs) and their `static properties`. `npm run build` writes it to dist/custom-elements.json;
 * scripts/gen-framework-types.mjs turns it into the Vue, Svelte and React 19 types.
 *
 * Tags are defined with `VkX.define('vk-x')` (idempotent, see shared/vk-element.ts) rather than
 * `customElements.define`, so the plugin below links each class to its tag.
 */
const defined = new Map() // class name → { tag, module }

function vkDefinePlugin() {
  return {
    name: 'venuekit-define',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return
      const { expression: target, name } = node.expression
      const [tag] = node.arguments
      if (name.text !== 'define' || !ts.isIdentifier(target) || !tag || !ts.isStringLiteral(tag) || !tag.text.startsWith('vk-')) return
      defined.set(target.text, { tag: tag.text, module: moduleDoc.path })
    },
    packageLinkPhase({ customElementsManifest }) {
      const byPath = new Map(customElementsManifest.modules.map((m) => [m.path, m]))
      for (const mod of customElementsManifest.modules) {
        for (const decl of mod.declarations ?? []) {
          const def = decl.kind === 'class' ? defined.get(decl.name) : undefined
          if (!def) continue
          decl.tagName = def.tag
          decl.customElement = true
          const defModule = byPath.get(def.module)
          if (defModule) {
            defModule.exports ??= []
            if (!defModule.exports.some((e) => e.kind === 'custom-element-definition' && e.name === def.tag))
              defModule.exports.push({ kind: 'custom-element-definition', name: def.tag, declaration: { name: decl.name, module: mod.path } })
          }
        }
      }
    },
  }
}

export default {
  globs: ['src/elements/*/*.ts'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [vkDefinePlugin()],
}
