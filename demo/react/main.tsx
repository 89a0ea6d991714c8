/** The market page as a React 19 app (demo). The elements and one store, straight from the package. */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { createRoot } from 'react-dom/client'
import type {} from 'venuekit/types/react'
import type { Venuekit } from 'venuekit/stores'
import 'venuekit/elements/platform-provider'
import 'venuekit/elements/take-prompt'
import 'venuekit/elements/market-comments'
import 'venuekit/elements/follow-button'
import type { Market } from '../../src/contract/types.ts'
import { startApp } from '../shared/app.ts'
import { takeCountLine } from '../shared/market.ts'

/** A nanostores store in React (what @nanostores/react's useStore does). */
function useStore<T>(store: { get(): T; listen(cb: () => void): () => void }): T {
  return useSyncExternalStore(
    (cb) => store.listen(cb),
    () => store.get(),
  )
}

function App({ vk, market, buyHost }: { vk: Venuekit; market: Market; buyHost: HTMLElement }) {
  // One store directly: the market's take count.
  const count = useStore(vk.takeCounts([market.id])).countOf(market.id)
  const actions = useRef<HTMLDivElement>(null)
  useEffect(() => void actions.current?.prepend(buyHost), [buyHost])
  const [lastEvent, setLastEvent] = useState('')
  const onPosted = (e: CustomEvent<{ post: { id: string } }>) => setLastEvent(`vk-post-created: ${e.detail.post.id}`)
  return (
    <>
      <section className="market-head">
        <span className="framework-badge">React 19</span>
        <h1>{market.title}</h1>
        <p className="store-line" data-store="take-count">
          {takeCountLine(count)}
        </p>
      </section>
      <div ref={actions} className="market-actions">
        <vk-follow-button subject-type="event" subject-ref={market.id}></vk-follow-button>
      </div>
      <vk-platform-provider venuekit={vk}>
        <vk-take-prompt onvk-post-created={onPosted}></vk-take-prompt>
      </vk-platform-provider>
      <vk-market-comments market-id={market.id} onvk-post-created={onPosted}></vk-market-comments>
      <p className="store-line" data-last-event aria-live="polite">
        {lastEvent}
      </p>
    </>
  )
}

const { vk, market, buyHost } = await startApp()
createRoot(document.getElementById('app')!).render(<App vk={vk} market={market} buyHost={buyHost} />)
