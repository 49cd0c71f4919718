/**
 * What a person opened from someone else: a run bundle (shown as a read-only run) or a share link
 * (a read-only workflow preview), shown by the Workflows page where it was dropped or linked. Nothing is sent or run here until the person asks: Reuse places the inputs and opens the
 * form, where only Run runs it.
 */
import { workflowInputsUsed } from '$lib/workbench/rules/inputs-used';
import type { OpenedBundle, SharedWorkflow } from './run-bundle';
import { workflowLibrary } from './workflow-library.svelte';

export type Shared =
	| { kind: 'bundle'; fileName: string; bundle: OpenedBundle; outputUrls: Map<string, string>; inputUrls: Map<string, string> }
	| { kind: 'link'; workflow: SharedWorkflow };

const loadBundles = () => import('./run-bundle');

export class SharedRun {
	shared = $state.raw<Shared | null>(null);
	/** Why the last file or link was refused, in one line. */
	problem = $state<string | null>(null);
	busy = $state(false);
	/** What Reuse did with the input files, in words. */
	placed = $state<string | null>(null);

	prompt = $derived(
		this.shared?.kind === 'bundle' ? this.shared.bundle.prompt : this.shared?.kind === 'link' ? this.shared.workflow.prompt : null
	);
	inputsUsed = $derived.by(() => {
		const shared = this.shared;
		if (!shared) return null;
		if (shared.kind === 'link') return workflowInputsUsed(shared.workflow.prompt);
		const pictures = new Map<string, string>();
		for (const input of shared.bundle.manifest.inputs) {
			const url = shared.inputUrls.get(input.path);
			if (url) pictures.set(`${input.nodeId}.${input.input}`, url);
		}
		return workflowInputsUsed(shared.bundle.prompt, pictures);
	});

	async openFile(file: File): Promise<boolean> {
		this.busy = true;
		this.placed = null;
		try {
			const { openBundleFile } = await loadBundles();
			const opened = await openBundleFile(file);
			if (!opened.ok) {
				this.problem = `${file.name} was not opened: ${opened.error.message}`;
				return false;
			}
			this.problem = null;
			this.show({ kind: 'bundle', fileName: file.name, bundle: opened.value, ...this.urls(opened.value) });
			return true;
		} finally {
			this.busy = false;
		}
	}

	async openFragment(fragment: string): Promise<void> {
		const { openShareLink } = await loadBundles();
		const read = openShareLink(fragment);
		this.placed = null;
		if (!read.ok) {
			this.problem = read.error.message;
			this.show(null);
			return;
		}
		this.problem = null;
		this.show({ kind: 'link', workflow: read.value });
	}

	/** The bundle's workflow on `profileId`, its input files found there by hash or sent; answers the saved workflow's id. */
	async reuse(profileId: string): Promise<string | null> {
		const shared = this.shared;
		if (!shared) return null;
		this.busy = true;
		try {
			if (shared.kind === 'link') return (await this.save(shared.workflow.name, shared.workflow.prompt, shared.workflow.ui, profileId)).id;
			const { placeBundleInputs } = await loadBundles();
			const plan = await placeBundleInputs(shared.bundle, profileId);
			if (!plan.ok) {
				this.problem = plan.error.message;
				return null;
			}
			const { found, sent, uploadedBytes } = plan.value;
			this.placed = `Input files: ${found} found on the server by hash, ${sent} sent (${uploadedBytes} bytes).`;
			return (await this.save(shared.bundle.manifest.title, plan.value.prompt, shared.bundle.ui, profileId)).id;
		} finally {
			this.busy = false;
		}
	}

	private save(name: string, prompt: OpenedBundle['prompt'], ui: OpenedBundle['ui'], profileId: string) {
		return workflowLibrary.save({ name, prompt, ...(ui ? { ui } : {}), profileId });
	}

	private urls(bundle: OpenedBundle): { outputUrls: Map<string, string>; inputUrls: Map<string, string> } {
		const url = (path: string, type: string) => URL.createObjectURL(new Blob([bundle.files.get(path)!], { type }));
		return {
			outputUrls: new Map(bundle.manifest.outputs.map((o) => [o.path, url(o.path, o.type)])),
			inputUrls: new Map(bundle.manifest.inputs.map((i) => [i.path, url(i.path, i.type)]))
		};
	}

	/** Shows `next`, revoking the object URLs of what was shown before. */
	private show(next: Shared | null): void {
		const before = this.shared;
		if (before?.kind === 'bundle') for (const u of [...before.outputUrls.values(), ...before.inputUrls.values()]) URL.revokeObjectURL(u);
		this.shared = next;
	}

	clear(): void {
		this.show(null);
		this.problem = null;
		this.placed = null;
	}
}

/** One per tab. */
export const sharedRun = new SharedRun();
