/**
 * Taxonomy nodes in attributes: `global` is null (the global board), `<type>:<ref>` is a node
 * (`category:weather`). Anything else is undefined: not given, so an element that needs it renders nothing.
 */
import { NODE_REF_RE, isNodeType } from '../../contract/ids.ts'
import type { NodeRef } from '../../contract/types.ts'

export function parseNodeAttr(v: string | null | undefined): NodeRef | null | undefined {
  if (v == null) return undefined
  const s = v.trim()
  if (s === 'global' || s === 'null') return null
  const i = s.indexOf(':')
  const type = s.slice(0, i)
  const ref = s.slice(i + 1)
  if (i <= 0 || !isNodeType(type) || !NODE_REF_RE.test(ref)) return undefined
  return { type, ref }
}

/** Lit property converter for a node attribute. */
export const nodeRefConverter = {
  fromAttribute: parseNodeAttr,
  toAttribute: (v: NodeRef | null | undefined) => (v === null ? 'global' : v ? `${v.type}:${v.ref}` : undefined),
}
