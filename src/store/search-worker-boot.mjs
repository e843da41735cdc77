// Search thread entry when kb runs from src/ (tests, development): load TypeScript through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./search-worker.ts');
