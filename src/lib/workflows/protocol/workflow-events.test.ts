import { describe, expect, it } from 'vitest';
import { parseServerEvent } from './workflow-events';

describe('workflow service events', () => {
	it("reads ComfyUI's nested status and the flat form", () => {
		expect(parseServerEvent('{"type":"status","data":{"status":{"exec_info":{"queue_remaining":3}},"sid":"s"}}')).toEqual({
			ok: true,
			event: { type: 'status', queueRemaining: 3, sid: 's' }
		});
		expect(parseServerEvent('{"type":"status","data":{"queue_remaining":1}}')).toMatchObject({ event: { queueRemaining: 1 } });
	});

	it('treats executing with node null or empty as the end of a prompt', () => {
		expect(parseServerEvent('{"type":"executing","data":{"node":null,"prompt_id":"p"}}')).toMatchObject({ event: { node: null } });
		expect(parseServerEvent('{"type":"executing","data":{"node":"","prompt_id":"p"}}')).toMatchObject({ event: { node: null } });
		expect(parseServerEvent('{"type":"executing","data":{"node":"3","prompt_id":"p"}}')).toMatchObject({ event: { node: '3' } });
	});

	it('reads executed outputs into images, video and audio', () => {
		const text = JSON.stringify({
			type: 'executed',
			data: {
				node: '9',
				prompt_id: 'p',
				output: {
					images: [{ filename: 'a.png', subfolder: '', type: 'output' }],
					gifs: [{ filename: 'b.webp', type: 'output' }],
					text: ['hi']
				}
			}
		});
		expect(parseServerEvent(text)).toMatchObject({
			ok: true,
			event: {
				type: 'executed',
				output: {
					images: [{ filename: 'a.png' }],
					video: [{ filename: 'b.webp', subfolder: '' }],
					audio: [],
					other: { text: ['hi'] }
				}
			}
		});
	});

	it('keeps unknown message types and rejects malformed ones with a reason', () => {
		expect(parseServerEvent('{"type":"crystools.monitor","data":{"cpu":3}}')).toMatchObject({
			event: { type: 'unknown', rawType: 'crystools.monitor' }
		});
		expect(parseServerEvent('not json')).toMatchObject({ ok: false });
		expect(parseServerEvent('{"data":{}}')).toMatchObject({ ok: false, message: /type/ });
		expect(parseServerEvent('{"type":"execution_success","data":{}}')).toMatchObject({ ok: false, message: /prompt_id/ });
		expect(parseServerEvent('{"type":"progress","data":{"value":1}}')).toMatchObject({ ok: false });
	});
});
