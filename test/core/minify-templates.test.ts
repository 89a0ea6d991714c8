/** The script bundle's template shrinking (scripts/vite-minify-templates.ts): whitespace, CSS comments, CSS selector quotes and leading zeros change. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { minifyCss, minifyHtml, minifyHtmlParts } from '../../scripts/vite-minify-templates.ts'

describe('template minifier', () => {
  it('css: comments, the spaces next to { } ; , > and after :, and a block\'s last semicolon go; a space before : (a descendant selector) and around + (calc) stay', () => {
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
      " :host{display:block}.row :focus-visible>[part~=card],a:hover{margin:calc(var(--x) + 2px) 0;font:600 1em / 1.2 system-ui}@media (max-width:600px){.a{gap:0}}",
    )
  })

  it("css: an attribute selector's quoted identifier loses its quotes; other values keep them", () => {
    assert.equal(minifyCss(":host([theme='dark']) [part~='chip'],[aria-selected='true']{}"), ':host([theme=dark]) [part~=chip],[aria-selected=true]{}')
    assert.equal(minifyCss("[data-x='1a'],[title='a b'],[lang|='en-GB']{}"), "[data-x='1a'],[title='a b'],[lang|=en-GB]{}", 'a digit first or a space: quotes stay')
  })

  it("css: a number's leading zero goes; 10.5, 1.05 and names with a 0 stay", () => {
    assert.equal(
      minifyCss('.a{transition:opacity 0.6s;opacity:0.7;box-shadow:0 2px 8px rgb(0 0 0 / 0.2);width:10.5px;font-size:1.05em}.b0.c{margin:0}'),
      '.a{transition:opacity .6s;opacity:.7;box-shadow:0 2px 8px rgb(0 0 0 / .2);width:10.5px;font-size:1.05em}.b0.c{margin:0}',
    )
  })

  it('html: a whitespace run with a line break becomes one space; other spaces stay', () => {
    assert.equal(minifyHtml('<span>\n    a  b\n  </span>'), '<span> a  b </span>')
    assert.equal(minifyHtml('${a}\n  ${b}'), '${a} ${b}', 'between two expressions (inline buttons) a space stays')
  })

  it("html: a whitespace run with a line break before a tag's closing `>` goes (start and end tags); before `/>` it stays", () => {
    assert.equal(minifyHtml('<span part="chip" title=${a}\n  ><b>x</b></span\n  > <vk-x\n  .a=${b}\n></vk-x>'), '<span part="chip" title=${a}><b>x</b></span> <vk-x .a=${b}></vk-x>')
    assert.equal(minifyHtml('<img src=x\n  />'), '<img src=x />', 'an unquoted value would take the /')
  })

  it('html: a whitespace run with a line break next to a block element\'s start or end tag goes (it draws nothing there); an inline element keeps its space', () => {
    assert.equal(minifyHtml('<ol part="list">\n  <li class="row">\n    a  b\n  </li>\n  <li>x</li>\n</ol>'), '<ol part="list"><li class="row">a  b</li><li>x</li></ol>')
    assert.equal(minifyHtml('<div>\n  <span>\n a</span>\n</div>'), '<div><span> a</span></div>')
    assert.equal(minifyHtml('<path d="x">\n  <param>\n <pre>'), '<path d="x"> <param> <pre>', 'path, param, pre are not p')
    assert.equal(minifyHtml('<p> a</p> <li>'), '<p> a</p> <li>', 'spaces without a line break stay')
  })

  it("html: a template's parts are read as one text, so a block tag whose attributes hold a binding loses the white space after it too; the bindings stay where they were", () => {
    assert.deepEqual(minifyHtmlParts(['<li part="row" id="vk-post-', '" tabindex="-1">\n  ', ' ', '\n</li>\n<span class=', '>\n  ', '</span>']), [
      '<li part="row" id="vk-post-',
      '" tabindex="-1">',
      ' ',
      '</li><span class=',
      '> ',
      '</span>',
    ])
  })

  it("html: a whitespace run with a line break at the start or end of a button's content goes; between two buttons it stays (a gap)", () => {
    assert.equal(
      minifyHtml('<button type="button" part="reply" @click=${r}>\n  ${label}\n</button>\n<button part="tail">\n  Tail<span class="vk-visually-hidden"> ${side}</span>\n</button>'),
      '<button type="button" part="reply" @click=${r}>${label}</button> <button part="tail">Tail<span class="vk-visually-hidden"> ${side}</span></button>',
    )
  })
})
