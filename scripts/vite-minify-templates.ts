/**
 * A vite plugin for the script-tag bundle: shrinks the static text of Lit's `css` and `html` templates in
 * src/elements, which a JavaScript minifier leaves untouched (template strings are data to it).
 * - css: comments removed, whitespace runs collapsed, spaces next to `{ } ; , >` and after `:` removed
 *   (never before `:`: `.a :focus` is a descendant selector; never around `+`, which calc() needs), and a
 *   block's last `;`; quotes around an identifier in an attribute selector (`[part='x']`), a number's
 *   leading zero (`0.6s`), and a stylesheet's leading and trailing white space.
 * - html/svg: whitespace runs that contain a line break become one space (the same rendering in
 *   normal flow; no element template has `<pre>` or multi-line `<textarea>` content), or none next to a
 *   block element's start or end tag (`div`, `li`, `p`, …), where white space draws nothing: it starts or
 *   ends a line, or stands between blocks. No template has line breaks inside a `white-space: pre-wrap`
 *   element (a post's body is `<p part="body">${body}</p>`). Also gone: such a run before a tag's closing `>`, and
 *   at the start and end of a button's content (a button lays its content out on lines of its own, whose ends
 *   drop white space; the run between two buttons stays). A template's static parts are read as one text, so a
 *   block tag with bindings in its attributes counts as one too.
 * Only whitespace, CSS comments and those CSS spellings change, so expressions, bindings and text stay as
 * written. (Unquoting HTML attribute values was measured too: smaller minified, 24 B larger gzipped.)
 */
import MagicString from 'magic-string'
import type { Plugin } from 'vite'

interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

export function minifyCss(raw: string): string {
  return raw
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    // `[part='x']` → `[part=x]`: an identifier needs no quotes in an attribute selector.
    .replace(/\[([\w-]+)([~|^$*]?=)'([A-Za-z_][\w-]*)'\]/g, '[$1$2$3]')
    // `0.6s` → `.6s` (after a delimiter: `10.5` and names stay).
    .replace(/([\s:,(/])0\.(\d)/g, '$1.$2')
}

/** Block elements: white space next to their tags draws nothing in normal flow (nor in a flex or grid box). */
const BLOCK = '(?:article|aside|div|footer|form|h[1-6]|header|li|nav|ol|p|section|ul)'
const AFTER_BLOCK_TAG = new RegExp(`(<${BLOCK}\\b[^<>]*>|</${BLOCK}>)\\s*\\n\\s*`, 'g')
const BEFORE_BLOCK_TAG = new RegExp(`\\s*\\n\\s*(</?${BLOCK}\\b)`, 'g')

/**
 * A button's own content: the white space at its start and end (it lays out its content as a block of its own,
 * whose lines drop white space at their ends). Not the white space around the button, which can draw a gap.
 */
const BUTTON_START = /(<button\b[^<>]*>)\s*\n\s*/g
const BUTTON_END = /\s*\n\s*(<\/button>)/g

export function minifyHtml(raw: string): string {
  return raw
    .replace(BUTTON_START, '$1')
    .replace(BUTTON_END, '$1')
    // A tag's `>` on its own line (`title=${x}\n  >`, `</span\n  >`): the white space before it separates nothing.
    .replace(/\s*\n\s*>/g, '>')
    .replace(AFTER_BLOCK_TAG, '$1').replace(BEFORE_BLOCK_TAG, '$1').replace(/\s*\n\s*/g, ' ')
}

/**
 * `minifyHtml` over a whole template, its static parts (`quasis`) read as one text: a tag whose attributes hold
 * bindings (`<li id="vk-post-${id}">`) is a block tag all the same. Only white space goes, never a binding.
 */
export function minifyHtmlParts(quasis: string[]): string[] {
  const parts = minifyHtml(quasis.join('\0')).split('\0')
  if (parts.length !== quasis.length) throw new Error('minifyHtmlParts: a binding was lost')
  return parts
}

export function minifyLitTemplates(include: RegExp = /\/src\/elements\/.*\.ts$/): Plugin {
  return {
    name: 'venuekit-minify-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (!include.test(id) || !/\b(css|html|svg)`/.test(code)) return null
      const s = new MagicString(code)
      const walk = (n: unknown): void => {
        if (Array.isArray(n)) return n.forEach(walk)
        if (!n || typeof n !== 'object' || typeof (n as Node).type !== 'string') return
        const node = n as Node
        const tag = node.tag as Node & { name?: string }
        if (node.type === 'TaggedTemplateExpression' && tag.type === 'Identifier' && ['css', 'html', 'svg'].includes(tag.name!)) {
          const quasis = (node.quasi as { quasis: Node[] }).quasis
          const html = tag.name === 'css' ? null : minifyHtmlParts(quasis.map((q) => code.slice(q.start, q.end)))
          for (const [i, q] of quasis.entries()) {
            const raw = code.slice(q.start, q.end)
            let out = html ? html[i] : minifyCss(raw)
            // A stylesheet's own leading and trailing white space separates nothing.
            if (tag.name === 'css' && q === quasis[0]) out = out.trimStart()
            if (tag.name === 'css' && q === quasis.at(-1)) out = out.trimEnd()
            if (out !== raw && q.end > q.start) s.overwrite(q.start, q.end, out)
          }
        }
        for (const [k, v] of Object.entries(node)) if (k !== 'parent' && v && typeof v === 'object') walk(v)
      }
      walk(this.parse(code))
      return s.hasChanged() ? { code: s.toString(), map: s.generateMap({ hires: true }) } : null
    },
  }
}
