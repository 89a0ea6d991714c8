// Single-file components, for tsc: their own toolchains (vue-tsc, svelte-check) check what is inside them.
declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<Record<string, unknown>>
  export default component
}
declare module '*.svelte' {
  import type { Component } from 'svelte'
  const component: Component<Record<string, unknown>>
  export default component
}
