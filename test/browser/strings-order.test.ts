/**
 * The order of the strings layers (§4.4 rule 7, issue 6 rule 7): built-in strings for the locale, then the
 * nearest `<vk-strings-provider>`'s overrides, then an element's in-between overrides (`roomStrings`,
 * `cardStrings`), then the element's own `strings` property. The more specific layer wins.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { LitElement, html as litHtml } from 'lit'
import '../../src/elements/strings-provider/strings-provider.ts'
import '../../src/elements/author-takes/author-takes.ts'
import { StringsController } from '../../src/elements/shared/strings-controller.ts'
import { LOCALES, registerLocale, type CommentsStrings, type StringSlices } from '../../src/elements/shared/strings/index.ts'
import { deep, deepText, disposeVk, makeVk, service, until } from './elements-env.ts'

/** A bare host of the controller: `extra` is its in-between layer, `strings` its own. Shows `reply` as `t` and as `all` read it. */
class StringsProbe extends LitElement {
  static override properties = { strings: { attribute: false }, extra: { attribute: false } }
  declare strings: Partial<CommentsStrings> | null | undefined
  declare extra: Partial<CommentsStrings> | null | undefined
  readonly str = new StringsController(this, 'comments', () => this.extra)
  override render() {
    return litHtml`<span id="t">${this.str.t('reply')}</span><span id="all">${this.str.all.reply}</span>`
  }
}
customElements.define('vk-test-strings-probe', StringsProbe)

/** A host in a locale of its own: shows `reply` and `edit` as `t` and as `all` read them. */
class LocaleProbe extends LitElement {
  static override properties = { locale: {} }
  declare locale: string | undefined
  readonly str = new StringsController(this, 'comments')
  override render() {
    return litHtml`<span id="t">${this.str.t('reply')}|${this.str.t('edit')}</span><span id="all">${this.str.all.reply}|${this.str.all.edit}</span>`
  }
}
customElements.define('vk-test-locale-probe', LocaleProbe)

const read = (el: Element) => [el.shadowRoot!.getElementById('t')!.textContent, el.shadowRoot!.getElementById('all')!.textContent]

describe('strings layers (§4.4 rule 7)', () => {
  afterEach(() => disposeVk())

  it('§4.4 rule 7 "a per-component strings prop (prop wins)": the controller reads built-in < provider < in-between overrides (roomStrings, cardStrings) < the element\'s own `strings`, in `t()` and in the merged slice alike', async () => {
    const box = await fixture(html`<div>
      <vk-test-strings-probe></vk-test-strings-probe>
      <vk-strings-provider .strings=${{ comments: { reply: 'provider' } }}>
        <vk-test-strings-probe></vk-test-strings-probe>
        <vk-test-strings-probe .extra=${{ reply: 'extra' }}></vk-test-strings-probe>
        <vk-test-strings-probe .strings=${{ reply: 'own' }}></vk-test-strings-probe>
        <vk-test-strings-probe .extra=${{ reply: 'extra' }} .strings=${{ reply: 'own' }}></vk-test-strings-probe>
        <vk-test-strings-probe .extra=${{ agree: 'x' }} .strings=${{ edit: 'y' }}></vk-test-strings-probe>
      </vk-strings-provider>
    </div>`)
    const probes = [...box.querySelectorAll<StringsProbe>('vk-test-strings-probe')]
    await Promise.all(probes.map((p) => p.updateComplete))
    await until(() => read(probes[1])[0] === 'provider', 'the provider\'s strings reached the probes')
    expect(probes.map(read)).to.deep.equal([
      ['Reply', 'Reply'],
      ['provider', 'provider'],
      ['extra', 'extra'],
      ['own', 'own'],
      ['own', 'own'],
      // Layers without the key leave it to the next one down.
      ['provider', 'provider'],
    ])
  })

  it('§4.4 rule 7 "the room slice as roomStrings": <vk-author-takes>\' `roomStrings` win over the provider\'s room slice (its empty Discussion), and the provider\'s over the built-in; its comments-slice `strings` never reach the room slice', async () => {
    await makeVk()
    const s = await service()
    const wallet = s.wallet().wallet
    const box = await fixture(html`<div>
      <vk-author-takes wallet=${wallet}></vk-author-takes>
      <vk-strings-provider .strings=${{ room: { profileNoDiscussion: 'P-none', profileTabs: 'P {name}' } }}>
        <vk-author-takes wallet=${wallet}></vk-author-takes>
        <vk-author-takes wallet=${wallet} .roomStrings=${{ profileNoDiscussion: 'R-none' }}></vk-author-takes>
        <vk-author-takes wallet=${wallet} .strings=${{ profileNoDiscussion: 'C-none' } as object}></vk-author-takes>
      </vk-strings-provider>
    </div>`)
    const [builtIn, provided, own, commentsOnly] = [...box.querySelectorAll('vk-author-takes')]
    const empty = (el: Element) => (deep(el, '[part~="empty"]') ? deepText(deep(el, '[part~="empty"]')!) : null)
    await until(() => empty(builtIn) && empty(provided) && empty(own), 'three empty Discussion tabs')
    expect([builtIn, provided, own].map(empty)).to.deep.equal(['No posts yet.', 'P-none', 'R-none'])
    // Its `strings` are the comments slice: a room key there is not a room string.
    await until(() => empty(commentsOnly), 'the fourth empty Discussion tab')
    expect(empty(commentsOnly)).to.equal('P-none')
    // A key the element's roomStrings leave out still comes from the provider.
    expect(deep(own, '[role="tablist"]')!.getAttribute('aria-label')!.startsWith('P ')).to.equal(true)
  })

  it('a key a registered locale lacks reads in English, never as its name (venuekit-es.js from an older release next to a newer venuekit.js)', async () => {
    const { reply: _left, ...partial } = LOCALES.en.comments
    registerLocale('xx-test', { comments: { ...partial, edit: 'Modifier' }, room: LOCALES.en.room } as unknown as StringSlices)
    try {
      const el = await fixture<LocaleProbe>(html`<vk-test-locale-probe locale="xx-test"></vk-test-locale-probe>`)
      expect(read(el)).to.deep.equal(['Reply|Modifier', 'Reply|Modifier'])
    } finally {
      delete LOCALES['xx-test']
    }
  })
})
