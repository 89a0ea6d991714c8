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

/** Puts the brand and the page links at the start of `<header class="site">`. */
export function mountSiteNav(header: Element | null = document.querySelector('header.site')) {
  if (!header || header.querySelector('nav')) return
  const brand = document.createElement('a')
  brand.className = 'brand'
  brand.href = '/'
  const mark = document.createElement('span')
  mark.className = 'brand-mark'
  mark.setAttribute('aria-hidden', 'true')
  mark.textContent = '⚓'
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
