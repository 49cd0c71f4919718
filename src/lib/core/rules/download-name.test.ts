import { describe, expect, it } from 'vitest';
import { downloadName } from './download-name';

describe('downloadName', () => {
	it.each([
		['ComfyUI_00001_.png', 'ComfyUI_00001_.png'],
		['../../etc/passwd', 'etc_passwd'],
		['.bashrc', 'bashrc'],
		['a\u202Egnp.exe', 'a_gnp.exe'],
		['C:\\Users\\me\\out.png', 'C_Users_me_out.png'],
		['name with spaces & <tags>.webp', 'name_with_spaces_tags_.webp'],
		['a\u0000b\nc.png', 'a_b_c.png'],
		['\ud800.png', 'png'],
		['', 'result'],
		['...', 'result'],
		[null, 'result']
	])('%j downloads as %j', (raw, expected) => {
		expect(downloadName(raw)).toBe(expected);
	});

	it('cuts a long name but keeps its extension', () => {
		const name = downloadName(`${'x'.repeat(500)}.png`);
		expect(name).toHaveLength(120);
		expect(name.endsWith('.png')).toBe(true);
	});
});
