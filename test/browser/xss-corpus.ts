/**
 * Common XSS payloads for the "user text renders as text" tests. Every payload, if it ever ran, would
 * set `window.__vkXss` (directly or through `__vkXssHit`), so a test can assert that no script ran; the
 * markup they carry (script, img, svg, iframe, a[href^=javascript:] …) must never appear as elements.
 */
const hit = 'window.__vkXss=1'

export const XSS_PAYLOADS: string[] = [
  `<script>${hit}</script>`,
  `<img src=x onerror="${hit}">`,
  `<img src="x" onerror="${hit}"`,
  `<svg onload="${hit}"></svg>`,
  `<svg><script>${hit}</script></svg>`,
  `<a href="javascript:${hit}">click me</a>`,
  `javascript:${hit}`,
  `"><script>${hit}</script>`,
  `'><img src=x onerror=${hit}>`,
  `</textarea><script>${hit}</script>`,
  `<iframe src="javascript:${hit}"></iframe>`,
  `<iframe srcdoc="<script>parent.${hit}</script>"></iframe>`,
  `<body onload=${hit}>`,
  `<details open ontoggle=${hit}>x</details>`,
  `<input autofocus onfocus=${hit}>`,
  `<object data="javascript:${hit}"></object>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${hit}>`,
  `<scr<script>ipt>${hit}</scr</script>ipt>`,
  `<!--<img src=x onerror=${hit}>-->`,
  `<div style="background:url(javascript:${hit})">styled</div>`,
  '${' + hit + '}',
  '{{constructor.constructor("' + hit + '")()}}',
  `&lt;script&gt;${hit}&lt;/script&gt;`,
  `&#60;img src=x onerror=${hit}&#62;`,
  `<<img src=x onerror=${hit}>>`,
  `<img src=x onerror=${hit}`,
]

/** Short payloads for fields with small limits (profile names, outcome labels). */
export const XSS_SHORT = {
  name: `<img src=x onerror=${hit}>`,
  label: `<svg onload=${hit}>`,
  label2: `"><img src=x onerror=${hit}>`,
  title: `<img src=x onerror=${hit}>"><script>${hit}</script>`,
  avatarUrl: `https://example.com/a.png?"><script>${hit}</script>`,
}

/** Elements a payload could inject; none of them is ever drawn by a venuekit element from user text. */
export const INJECTED = 'script, iframe, object, embed, svg, math, a, body, input, details, style, link, meta, video, audio, marquee, mglyph, table'

/** Set up the trap the payloads would spring. */
export function armXssTrap() {
  const w = window as unknown as { __vkXss?: number; __vkXssHit?: () => void }
  delete w.__vkXss
  w.__vkXssHit = () => (w.__vkXss = 1)
  return () => w.__vkXss
}

/**
 * Asserts that nothing from user text became markup below `root` (through shadow roots): no injectable
 * element, images only as https avatars, no event-handler attributes.
 */
export async function expectInert(root: Element) {
  const { expect } = await import('@open-wc/testing')
  const all: Element[] = []
  const visit = (n: Element | ShadowRoot) => {
    for (const el of n.querySelectorAll('*')) {
      all.push(el)
      if (el.shadowRoot) visit(el.shadowRoot)
    }
  }
  visit(root.shadowRoot ?? root)
  expect(all.filter((e) => e.matches(INJECTED)).map((e) => e.outerHTML.slice(0, 80)), 'injected elements').to.deep.equal([])
  for (const img of all.filter((e): e is HTMLImageElement => e instanceof HTMLImageElement)) {
    expect(img.getAttribute('part'), 'only avatars are images').to.equal('avatar')
    expect(new URL(img.src).protocol).to.equal('https:')
  }
  const handlers = all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on')))
  expect(handlers.map((e) => e.outerHTML.slice(0, 80)), 'event-handler attributes').to.deep.equal([])
}
