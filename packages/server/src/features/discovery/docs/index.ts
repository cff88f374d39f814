export type { Guide } from './guide.js';
export { renderGuide } from './guide.js';
/** Every guide the server serves under `/docs/` and searches with `/ask`: the Markdown of the repository's `docs/`. */
export { guides } from './guides.generated.js';
