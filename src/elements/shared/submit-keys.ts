/** A textarea's keydown: Ctrl/Cmd+Enter submits its form (every composer, and the take prompt's reason). */
export const submitOnCtrlEnter = (e: KeyboardEvent) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) (e.target as HTMLTextAreaElement).form?.requestSubmit()
}
