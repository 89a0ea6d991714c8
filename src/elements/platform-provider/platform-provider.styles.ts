import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

/** A provider draws nothing of its own: `display: contents`, so the elements inside lay out as if it were not there. */
export const styles = [themeStyles, css`:host { display: contents; }`]
