/** The script bundle's template shrinking (scripts/vite-minify-templates.ts): only whitespace and CSS comments change. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { minifyCss, minifyHtml } from '../../scripts/vite-minify-templates.ts'

describe('template minifier', () => {
  it('css: comments and the spaces next to { } ; , > and after : go; a space before : (a descendant selector) and around + (calc) stay', () => {
    const raw = `
      /* a comment */
      :host { display: block; }
      .row :focus-visible > [part~='card'] , a:hover {
        margin: calc(var(--x) + 2px) 0;
        font: 600 1em / 1.2 system-ui;
      }
      @media (max-width: 600px) { .a { gap: 0 } }
    `
    assert.equal(
      minifyCss(raw),
      " :host{display:block;}.row :focus-visible>[part~='card'],a:hover{margin:calc(var(--x) + 2px) 0;font:600 1em / 1.2 system-ui;}@media (max-width:600px){.a{gap:0}}",
    )
  })

  it('html: a whitespace run with a line break becomes one space; other spaces stay', () => {
    assert.equal(minifyHtml('<p>\n    a  b\n  </p>'), '<p> a  b </p>')
  })
})
