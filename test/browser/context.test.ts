/**
 * How elements find their providers: the community context protocol (`context-request`,
 * `context-provider`), spoken by venuekit's own small implementation and compatible with `@lit/context`,
 * so a venue's own providers and consumers of venuekit's keys work with venuekit's elements.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { LitElement } from 'lit'
import { ContextConsumer as LitConsumer, ContextProvider as LitProvider, createContext as litContext } from '@lit/context'
import '../../src/elements/strings-provider/strings-provider.ts'
import type { VkStringsProvider } from '../../src/elements/strings-provider/strings-provider.element.ts'
import { ContextProvider } from '../../src/elements/shared/context.ts'
import { StringsController } from '../../src/elements/shared/strings-controller.ts'
import { stringsContext, type StringsContextValue } from '../../src/elements/shared/strings/index.ts'

/** An element that shows the comments slice's `post` string as venuekit's elements read it, and counts its reads. */
class StringsReader extends LitElement {
  static override properties = { strings: { attribute: false }, locale: {} }
  declare strings: null
  declare locale: string | null
  readonly s = new StringsController(this, 'comments')
  renders = 0
  override render() {
    this.renders++
    return this.s.t('post')
  }
}
customElements.define('x-strings-reader', StringsReader)

let n = 0
const text = (el: Element) => el.shadowRoot!.textContent!.trim()
const settle = async (...els: LitElement[]) => {
  for (const el of els) await el.updateComplete
}

describe('context protocol', () => {
  it('"<vk-strings-provider>" answers a venue\'s own @lit/context consumer of its key, and again on every change', async () => {
    class VenueReader extends LitElement {
      readonly c = new LitConsumer(this, { context: litContext<StringsContextValue>('venuekit-strings'), subscribe: true })
    }
    const tag = `x-venue-reader-${n++}`
    customElements.define(tag, VenueReader)
    const root = await fixture<VkStringsProvider>(html`<vk-strings-provider .strings=${{ comments: { post: 'Send it' } }}><div></div></vk-strings-provider>`)
    const reader = document.createElement(tag) as VenueReader
    root.firstElementChild!.append(reader)
    expect(reader.c.value?.overrides.comments?.post).to.equal('Send it')
    root.strings = { comments: { post: 'Ship it' } }
    await root.updateComplete
    expect(reader.c.value?.overrides.comments?.post).to.equal('Ship it')
  })

  it('"a venue\'s own @lit/context provider" of venuekit\'s strings key sets the strings of the elements inside it, and changes them', async () => {
    class VenueProvider extends LitElement {
      readonly p = new LitProvider(this, { context: litContext<StringsContextValue>('venuekit-strings'), initialValue: { locale: 'en', overrides: { comments: { post: 'Venue says post' } } } })
      override render() {
        return html`<slot></slot>`
      }
    }
    const tag = `x-venue-provider-${n++}`
    customElements.define(tag, VenueProvider)
    const outer = document.createElement(tag) as VenueProvider
    const reader = document.createElement('x-strings-reader') as StringsReader
    outer.append(reader)
    await fixture(html`<div></div>`).then((d) => d.append(outer))
    await settle(reader)
    expect(text(reader)).to.equal('Venue says post')
    outer.p.setValue({ locale: 'en', overrides: { comments: { post: 'Changed' } } })
    await settle(reader)
    expect(text(reader)).to.equal('Changed')
  })

  it('"a provider that connects inside another" takes over the subscribers below it (the nearest provider wins, even when it arrives late)', async () => {
    class LateProvider extends LitElement {
      readonly p = new ContextProvider<StringsContextValue>(this, stringsContext, { locale: 'en', overrides: { comments: { post: 'Inner' } } })
      override render() {
        return html`<slot></slot>`
      }
    }
    const tag = `x-late-provider-${n++}`
    const root = await fixture<VkStringsProvider>(html`<vk-strings-provider .strings=${{ comments: { post: 'Outer' } }}></vk-strings-provider>`)
    // The inner provider's tag is not defined yet: the reader subscribes to the outer one.
    const late = document.createElement(tag)
    const reader = document.createElement('x-strings-reader') as StringsReader
    late.append(reader)
    root.append(late)
    await settle(reader)
    expect(text(reader)).to.equal('Outer')
    customElements.define(tag, LateProvider)
    await settle(reader)
    expect(text(reader), 'moved to the nearer provider').to.equal('Inner')
    // And left the outer one: its changes no longer reach the reader.
    root.strings = { comments: { post: 'Outer again' } }
    await settle(root, reader)
    expect(text(reader)).to.equal('Inner')
    ;(late as LateProvider).p.setValue({ locale: 'en', overrides: { comments: { post: 'Inner again' } } })
    await settle(reader)
    expect(text(reader)).to.equal('Inner again')
  })

  it('"an element that leaves the page" is no longer called back by its provider, and asks again when it returns', async () => {
    const root = await fixture<VkStringsProvider>(html`<vk-strings-provider .strings=${{ comments: { post: 'One' } }}><x-strings-reader></x-strings-reader></vk-strings-provider>`)
    const reader = root.querySelector('x-strings-reader') as StringsReader
    await settle(reader)
    expect(text(reader)).to.equal('One')
    reader.remove()
    await settle(reader)
    const renders = reader.renders
    root.strings = { comments: { post: 'Two' } }
    await settle(root, reader)
    expect(reader.renders, 'no update after it left').to.equal(renders)
    root.append(reader)
    await settle(reader)
    expect(text(reader)).to.equal('Two')
  })

  it('"the nearest provider" answers: a provider does not answer its own request, and one inside another shadows it', async () => {
    const root = await fixture<VkStringsProvider>(html`<vk-strings-provider .strings=${{ comments: { post: 'Outer' } }}>
      <vk-strings-provider .strings=${{ comments: { post: 'Inner' } }}><x-strings-reader></x-strings-reader></vk-strings-provider>
      <x-strings-reader></x-strings-reader>
    </vk-strings-provider>`)
    const [inner, outer] = [...root.querySelectorAll('x-strings-reader')] as StringsReader[]
    await settle(inner, outer)
    expect(text(inner)).to.equal('Inner')
    expect(text(outer)).to.equal('Outer')
  })
})
