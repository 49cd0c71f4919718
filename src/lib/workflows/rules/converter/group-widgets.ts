/**
 * The widgets of a legacy group node (`extra.groupNodes`), in the order the instance stores their
 * values: the editor's GroupNodeConfig (src/extensions/core/groupNode.ts, frontend 1.x) builds them
 * node by node in the stored order, and the instance's `widgets_values` follow its widgets by position.
 * - Each inner widget not converted to an input, followed by its editor-only values. Unlike a plain
 *   node, an inner input named `seed` or `noise_seed` always gets a "control after generate"
 *   (`getInputConfig` adds it by name), whatever its definition says.
 * - A PrimitiveNode that feeds a widget inside the group is a widget of the group too: its value and
 *   a control (and the filter text after a list), as `checkPrimitiveConnection` sets it up.
 * - After all nodes, the converted widgets no inner link feeds (`processConvertedWidgets`).
 * An editor that no longer stores control values leaves them out: a count that matches the layout
 * without them is read that way, as for a plain node (see `widgets.ts`).
 */
import type { InputDefinition, NodeDefinitions } from '../../protocol/object-info';
import type { Json } from '../../../core/protocol/json';
import type { UiNode } from './ui-format';
import { controlValues, widgetLayout } from './widgets';

export interface GroupWidget {
	/** Index of the inner node the value goes to. */
	node: number;
	/** The inner widget's name (`value` for a PrimitiveNode). */
	name: string;
	/** Editor-only values stored right after this one. */
	extras: number;
}

const SEED_NAMES = new Set(['seed', 'noise_seed']);

function controlsOf(kind: string): number {
	if (kind === 'INT' || kind === 'FLOAT') return 1;
	return kind === 'COMBO' ? 2 : 0;
}

function extrasOf(input: InputDefinition, ownExtras: number): number {
	if (!SEED_NAMES.has(input.name)) return ownExtras;
	// By name: a control even where the definition has none (or turns it off); an upload button stays.
	return ownExtras - controlValues(input) + controlsOf(input.type.kind);
}

/** `fedInside` holds `<node index>:<input slot>` of every inner input an inner link feeds. */
export function groupWidgetLayout(nodes: UiNode[], definitions: NodeDefinitions, fedInside: Set<string>): GroupWidget[] {
	const layout: GroupWidget[] = [];
	const converted: GroupWidget[] = [];
	nodes.forEach((node, index) => {
		if (node.type === 'PrimitiveNode') {
			const output = node.outputs[0];
			if (output && output.links.length > 0) layout.push({ node: index, name: 'value', extras: controlsOf(output.type) });
			return;
		}
		const definition = Object.hasOwn(definitions, node.type) ? definitions[node.type] : undefined;
		if (!definition) return;
		const convertedHere: Array<{ slot: number; widget: GroupWidget }> = [];
		for (const slot of widgetLayout(definition)) {
			const widget = { node: index, name: slot.input.name, extras: extrasOf(slot.input, slot.extras) };
			const inputSlot = node.inputs.findIndex((i) => i.widgetName === slot.input.name);
			if (inputSlot === -1) layout.push(widget);
			else if (!fedInside.has(`${index}:${inputSlot}`)) convertedHere.push({ slot: inputSlot, widget });
		}
		// The editor sorts the converted slots as text ([...converted.keys()].sort()).
		convertedHere.sort((a, b) => (String(a.slot) < String(b.slot) ? -1 : String(a.slot) > String(b.slot) ? 1 : 0));
		converted.push(...convertedHere.map((c) => c.widget));
	});
	return [...layout, ...converted];
}

/** The instance's stored values, by inner node index and widget name. */
export function groupWidgetValues(layout: GroupWidget[], stored: Json[]): Map<number, Map<string, Json>> {
	const withExtras = layout.reduce((n, w) => n + 1 + w.extras, 0);
	const valuesOnly = stored.length === layout.length && layout.length !== withExtras;
	const values = new Map<number, Map<string, Json>>();
	let position = 0;
	for (const widget of layout) {
		const value = stored[position];
		position += valuesOnly ? 1 : 1 + widget.extras;
		if (value === undefined) continue;
		let own = values.get(widget.node);
		if (!own) values.set(widget.node, (own = new Map()));
		own.set(widget.name, value);
	}
	return values;
}
