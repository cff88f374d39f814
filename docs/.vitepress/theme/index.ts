/**
 * The site's theme: VitePress's default one, with the home hero's right half filled by a code card
 * (`HeroCode.vue`) instead of being left empty.
 */
import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import { h } from 'vue';
import HeroCode from './HeroCode.vue';
import './custom.css';

export default {
  extends: DefaultTheme,
  Layout: () => h(DefaultTheme.Layout, null, { 'home-hero-image': () => h(HeroCode) }),
} satisfies Theme;
