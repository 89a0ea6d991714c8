/** The locale script next to the bundle (dist/venuekit-es.js, built by `npm run build`) registers into the page's registry. */
import { expect } from '@open-wc/testing'
import { LOCALES, baseStrings } from '../../src/elements/shared/strings/index.ts'

describe('locale scripts', () => {
  it('English is built in; <script src="venuekit-es.js"> adds the complete Spanish locale for every copy of venuekit on the page', async () => {
    expect(Object.keys(LOCALES)).to.deep.equal(['en'])
    expect(baseStrings('es').comments.agree).to.equal('Agree', 'falls back to English before the script')
    await new Promise<void>((resolve, reject) => {
      const s = document.createElement('script')
      s.src = '/dist/venuekit-es.js'
      s.onload = () => resolve()
      s.onerror = () => reject(new Error('dist/venuekit-es.js did not load: run npm run build'))
      document.head.append(s)
    })
    expect(Object.keys(LOCALES).sort()).to.deep.equal(['en', 'es'])
    expect(baseStrings('es-MX').comments.agree).to.equal('De acuerdo')
    expect(baseStrings('es').room.joinRefused).to.equal('esta sala no está abierta para unirse')
  })
})
