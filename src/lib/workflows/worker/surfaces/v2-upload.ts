/** Uploading an input file as a v2 asset: sent with an idempotency key, retried, and waited on while scanned. */
import { backoffDelay, SOCKET_BACKOFF } from '../../../core/rules/backoff';
import { appError, fail, ok, type Result } from '../../../core/protocol/errors';
import { tryParseJson } from '../../../core/protocol/json';
import { parseV2Asset, parseV2Envelope } from '../../protocol/workflow-v2-parse';
import { afterUpload, retryAfterMs } from '../../rules/v2-idempotency';
import { assetInputName } from '../../rules/v2-job-mapping';
import type { Connection } from '../../../core/worker/context';
import type { Credential } from '../../../core/worker/guarded-fetch';
import { callV2, errorOf, exchangeOf, sleep, type Answer } from './v2-http';
import type { FileUpload, StoredFile } from './surface';

/** Sends a file as an asset, with an idempotency key, retrying and waiting out the scan as the rules say. */
export async function uploadAsset(
	connection: Connection,
	credential: Credential,
	api: string,
	upload: FileUpload
): Promise<Result<StoredFile>> {
	// The key is derived from the content hash: the same on every retry and after a reload, new for new content.
	const key = upload.idempotencyKey ?? `upload-${(upload.expectedHash ?? upload.name).replace(/^blake3:/, '').slice(0, 48)}`;
	for (let attempt = 1; ; attempt++) {
		const form = new FormData();
		form.append('file', upload.file, upload.name);
		form.append('content_type', upload.file.type || 'application/octet-stream');
		form.append('file_path', upload.name);
		if (upload.expectedHash) form.append('expected_hash', upload.expectedHash);
		const res = await connection.upload({
			url: `${api}/assets`,
			form,
			credential,
			onProgress: upload.onProgress,
			...(upload.signal ? { signal: upload.signal } : {}),
			headers: { 'Idempotency-Key': key }
		});
		if (upload.signal?.aborted) return fail(appError('cancelled', 'Cancelled: the file was not sent.'));
		const json = res.ok ? tryParseJson(res.value.body) : undefined;
		const answer: Answer = res.ok
			? {
					kind: 'answer',
					res: res.value,
					url: `${api}/assets`,
					json,
					envelope: res.value.status >= 400 ? parseV2Envelope(json) : null
				}
			: { kind: 'no-answer', error: res.error };
		const step = afterUpload(exchangeOf(answer), attempt, backoffDelay(attempt, SOCKET_BACKOFF, Math.random()));
		if (step.next === 'retry') {
			await sleep(step.afterMs, upload.signal);
			continue;
		}
		if (step.next === 'rehash')
			return fail(
				appError('invalid-input', 'The file changed while it was being read: choose it again, and it will be read afresh.', {
					errorType: 'hash_mismatch'
				})
			);
		if (answer.kind !== 'answer' || step.next === 'fail') return fail(errorOf(answer));
		const asset = parseV2Asset(answer.json, answer.url);
		if (!asset.ok) return fail(appError('bad-response', asset.reason));
		if (step.next === 'poll') {
			const ready = await waitReady(connection, credential, api, asset.value.id, step.afterMs, upload.signal);
			if (!ready.ok) return ready;
		}
		return ok({ name: assetInputName(asset.value.id), subfolder: '', type: 'input' });
	}
}

/** An upload answered 202 (still being scanned): poll the asset until it is ready (200). */
async function waitReady(
	connection: Connection,
	credential: Credential,
	api: string,
	id: string,
	firstWaitMs: number,
	signal?: AbortSignal
): Promise<Result<void>> {
	let wait = firstWaitMs;
	for (let i = 0; i < 60; i++) {
		await sleep(wait, signal);
		if (signal?.aborted) return fail(appError('cancelled', 'Cancelled: the file was not sent.'));
		const answer = await callV2(connection, credential, { url: `${api}/assets/${encodeURIComponent(id)}`, ...(signal ? { signal } : {}) });
		if (answer.kind === 'answer' && answer.res.status === 200) return ok(undefined);
		if (answer.kind === 'answer' && answer.res.status !== 202) return fail(errorOf(answer));
		wait = Math.min(5000, (answer.kind === 'answer' ? retryAfterMs(answer.res.header('Retry-After')) : null) ?? wait * 1.5);
	}
	return fail(appError('timeout', 'The service is still checking the uploaded file: try the run again in a minute.'));
}
