/**
 * A Vue 3 component reading a venuekit store with `@nanostores/vue` (`useStore`): one market's thread
 * and its take count. Written with a render function so it runs without an SFC compiler; in a `.vue`
 * file the same `setup` goes in `<script setup>` and the markup in `<template>`.
 */
import { useStore } from '@nanostores/vue'
import { defineComponent, h, type PropType } from 'vue'
import type { Venuekit } from '../../src/stores/index.ts'

export default defineComponent({
  name: 'VueComments',
  props: {
    vk: { type: Object as PropType<Venuekit>, required: true },
    marketId: { type: String, required: true },
  },
  setup(props) {
    const thread = useStore(props.vk.comments('event', props.marketId))
    const counts = useStore(props.vk.takeCounts([props.marketId]))
    return () => {
      const count = counts.value.countOf(props.marketId)
      return h('section', [
        // §4.5.4: print nothing (never '0 takes') while the count is unknown.
        count ? h('p', `${count.takes} takes, ${count.posts} posts`) : null,
        thread.value.loading
          ? h('p', { 'aria-busy': 'true' }, 'Loading…')
          : h('ul', thread.value.posts.map((p) => h('li', { key: p.id }, p.body))),
      ])
    }
  },
})
