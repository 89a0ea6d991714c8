/** The demo site's header (brand and page links), shared by every demo page. Demo code. */
const PAGES: [href: string, label: string][] = [
  ['/', 'Home'],
  ['/market.html', 'Market'],
  ['/room.html', 'Room'],
  ['/profile.html', 'Profile'],
  ['/operator.html', 'Operator'],
]
const APPS: [href: string, label: string][] = [
  ['/vue/', 'Vue'],
  ['/svelte/', 'Svelte'],
  ['/react/', 'React 19'],
]

const SVG = 'http://www.w3.org/2000/svg'
/** An anchor: ring, shank, stock and the two arms (stroked with the text colour). */
const ANCHOR = 'M12 2.5a2 2 0 1 1 0 4a2 2 0 1 1 0-4ZM12 6.5V21M8 9.5h8M4.5 13.5c0 4 3.5 7.5 7.5 7.5s7.5-3.5 7.5-7.5'

/** Puts the brand and the page links at the start of `<header class="site">`. */
export function mountSiteNav(header: Element | null = document.querySelector('header.site')) {
  if (!header || header.querySelector('nav')) return
  const brand = document.createElement('a')
  brand.className = 'brand'
  brand.href = '/'
  // The anchor is drawn, not typed: '⚓' is in no common UI font, and looking up a fallback font for it
  // cost a fresh page 10 to 20 ms of layout (fontconfig) right when the page's content was arriving.
  const mark = document.createElementNS(SVG, 'svg')
  mark.setAttribute('class', 'brand-mark')
  mark.setAttribute('aria-hidden', 'true')
  mark.setAttribute('viewBox', '0 0 24 24')
  const path = document.createElementNS(SVG, 'path')
  path.setAttribute('d', ANCHOR)
  mark.append(path)
  brand.append(mark, ' Harbor Markets')
  const nav = document.createElement('nav')
  nav.setAttribute('aria-label', 'Demo pages')
  const link = ([href, label]: [string, string]) => {
    const a = document.createElement('a')
    a.href = href
    a.textContent = label
    return a
  }
  const sep = document.createElement('span')
  sep.className = 'nav-sep'
  sep.setAttribute('aria-hidden', 'true')
  sep.textContent = '|'
  nav.append(...PAGES.map(link), sep, ...APPS.map(link))
  header.prepend(brand, nav)
}
