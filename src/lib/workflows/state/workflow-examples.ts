/** The example workflows the Workflows page offers beside the saved ones (their own module, so only that page loads them). */
export { EXAMPLE_WORKFLOWS, type ExampleWorkflow } from '$lib/workflows/rules/examples';
