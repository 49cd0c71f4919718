// Worker threads on Node 20 cannot start from a .ts file even with tsx's hooks: this plain entry loads it through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
