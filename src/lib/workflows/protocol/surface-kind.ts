/** The kinds of workflow server a profile can run on; each has its adapter and default capabilities (`worker/surfaces/capabilities.ts`). */
export type SurfaceKind = 'cloud-v1' | 'local-comfyui' | 'v2';
