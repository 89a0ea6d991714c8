/**
 * The no-framework floor page of the first-render bench (`bench/first-render.ts`): the same market's thread,
 * read and drawn by a few lines of plain script instead of venuekit. No bundle, no custom element, no shadow
 * DOM, no store: an inline script at the end of the body sends the same request the element sends (the same
 * URL and venue key header, over XMLHttpRequest as the element's page context does), and on its `load` builds
 * the first 5 posts as plain DOM: avatar initial, author, time, stance chip, body, Agree and Reply. Times and
 * numbers go through the same kinds of Intl formatters as the cards (relative time, its date-time title,
 * currency, percent, counts), as every visible number must. The other 15 rows of the page follow in a later
 * task, as the element's do. The cards carry the element's `part` names, so the bench's probe finds the first
 * one (`[data-vk-plain] [part~="card"]`) and times its paint as it times the element's.
 *
 * What it bounds: the ratio any page could reach on localhost with this thread, whatever renders it. It is a
 * lower bound, not a product: no accessibility beyond plain HTML, no strings provider, no profiles, no
 * realtime, no writes.
 */
export const PLAIN_FLOOR_PAGE = '/bench-plain-floor.html'

/** The same page with no Intl at all (`bench/plain-floor-intl.ts`): what ICU's start-up costs the floor. */
export const PLAIN_NO_INTL_PAGE = '/bench-plain-floor-no-intl.html'

const INTL_FORMATTERS = `
          const rt = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
          const dt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
          const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumFractionDigits: 2 })
          const pct = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 })
          const count = new Intl.NumberFormat(undefined)`

/** Plain-JS stand-ins of the same shape: a diagnostic only (the product formats every number and time with Intl). */
const PLAIN_FORMATTERS = `
          const rt = { format: (n, unit) => n + ' ' + unit }
          const dt = { format: (d) => d.toISOString() }
          const money = { format: (n) => 'US$' + n.toFixed(2) }
          const pct = { format: (n) => (n * 100).toFixed(1) + '%' }
          const count = { format: String }`

/**
 * The page's HTML. `__VK_API_KEY__` is the demo server's placeholder for the demo venue's key. With `intl`
 * false, the formatters are plain-JS stand-ins (PLAIN_NO_INTL_PAGE).
 */
export function plainFloorHtml(marketId: string, intl = true): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>The thread as plain DOM (venuekit first-render floor, no framework)</title>
    <style>
      body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; font-size: 15px; line-height: 1.45; color: #111827 }
      [data-vk-plain] { max-width: 720px; margin: 16px auto; padding: 0 16px }
      ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px }
      article { border: 1px solid #e5e7eb; border-radius: 10px; padding: 12px; display: grid; gap: 8px }
      header { display: flex; align-items: center; gap: 8px; flex-wrap: wrap }
      .avatar { width: 28px; height: 28px; border-radius: 50%; background: #e5e7eb; display: inline-grid; place-items: center; font-weight: 600 }
      .author { font-weight: 600 }
      time { color: #6b7280; font-size: 13px }
      .chip { display: inline-block; padding: 2px 8px; border-radius: 999px; background: #f3f4f6; font-size: 13px }
      .side-first { color: #047857 } .side-other { color: #b91c1c }
      p { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere }
      .actions { display: flex; gap: 8px }
      button { font: inherit; font-size: 13px; padding: 4px 10px; border: 1px solid #d1d5db; border-radius: 8px; background: #fff }
    </style>
  </head>
  <body>
    <section data-vk-plain aria-label="Comments"><ol part="list"></ol></section>
    <script data-api-key="__VK_API_KEY__">
      (() => {
        const key = document.currentScript.dataset.apiKey
        const market = ${JSON.stringify(marketId)}
        const section = document.querySelector('[data-vk-plain]')
        const list = section.querySelector('ol')
        const xhr = new XMLHttpRequest()
        xhr.open('GET', '/v1/social/posts?' + new URLSearchParams({ subjectType: 'event', subjectRef: market }))
        if (key && key !== 'none') xhr.setRequestHeader('X-Venue-Key', key)
        xhr.addEventListener('load', () => {
          const page = JSON.parse(xhr.responseText)
${intl ? INTL_FORMATTERS : PLAIN_FORMATTERS}
          const units = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]]
          const ago = (iso) => {
            const s = (Date.parse(iso) - Date.now()) / 1000
            const [unit, size] = units.find(([, n]) => Math.abs(s) >= n) ?? units[units.length - 1]
            return rt.format(Math.round(s / size), unit)
          }
          const el = (tag, attrs, ...kids) => {
            const e = document.createElement(tag)
            for (const k in attrs) e.setAttribute(k, attrs[k])
            e.append(...kids)
            return e
          }
          const labels = page.labels?.[market.toLowerCase()] ?? page.labels?.[market] ?? []
          const card = (p) => {
            const name = p.author.slice(0, 6) + '…' + p.author.slice(-4)
            const chips = []
            if (p.stance) {
              const side = labels[p.stance.side]?.label ?? '#' + (p.stance.side + 1)
              const size = money.format(Number(p.stance.size) / 1e6)
              const price = p.stance.priceBps == null ? null : pct.format(p.stance.priceBps / 10000)
              chips.push(el('span', { part: 'stance', class: 'chip side-' + (p.stance.side === 0 ? 'first' : 'other') }, price == null ? side : side + ' · ' + size + ' at ' + price))
            }
            return el('li', { part: 'row' },
              el('article', { part: 'card' },
                el('header', { part: 'header' },
                  el('span', { part: 'avatar', class: 'avatar', 'aria-hidden': 'true' }, p.author.slice(2, 3).toUpperCase()),
                  el('span', { part: 'author', class: 'author', title: p.author }, name),
                  el('time', { part: 'time', datetime: p.createdAt, title: dt.format(new Date(p.createdAt)) }, ago(p.createdAt))),
                ...(chips.length ? [el('div', { class: 'chips' }, ...chips)] : []),
                el('p', { part: 'body' }, p.body),
                el('div', { part: 'actions', class: 'actions' },
                  el('button', { type: 'button', part: 'agree', 'aria-pressed': 'false' }, p.agrees ? 'Agree · ' + count.format(p.agrees) : 'Agree'),
                  el('button', { type: 'button', part: 'reply' }, p.replies ? 'Reply · ' + count.format(p.replies) : 'Reply'))))
          }
          // The first screen now, the rest of the page after that frame, as the element does.
          list.append(...page.posts.slice(0, 5).map(card))
          requestAnimationFrame(() => setTimeout(() => {
            list.append(...page.posts.slice(5).map(card))
            if (page.hasMore) section.append(el('button', { type: 'button', part: 'more' }, 'Load more'))
          }))
        })
        xhr.send()
      })()
    </script>
  </body>
</html>
`
}
