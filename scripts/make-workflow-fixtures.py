#!/usr/bin/python3
"""Writes tests/fixtures/workflow-files/: one small file per format ComfyUI's save nodes write, each
carrying api-workflow.json as `prompt` and ui-workflow.json as `workflow`, written the way ComfyUI
writes them (checked against comfy_api/latest/_ui.py ImageSaveHelper/AudioSaveHelper and
comfy_api/latest/_input_impl/video_types.py save_to):

- PNG (SaveImage): PIL PngInfo.add_text -> tEXt chunks before IDAT.
- PNG variants other tools write when re-saving: compressed iTXt (add_itxt zip=True), zTXt (add_text zip=True).
- APNG (SaveAnimatedPNG): PngInfo.add(b"comf", key + b"\\0" + json, after_idat=True).
- Animated WebP (SaveAnimatedWEBP): EXIF 0x0110 = "prompt:<json>", 0x010F (counting down) = "workflow:<json>".
- FLAC / MP3 / Opus (SaveAudio*): PyAV container.metadata[key] = json -> libavformat's flac, mp3 and ogg
  muxers; we drive the same muxers with the ffmpeg CLI (-metadata key=value).
- MP4 (SaveVideo): PyAV with movflags=use_metadata_tags -> moov/udta/meta keys+ilst (moov at the end,
  ffmpeg's default). WebM: the same container metadata through the Matroska muxer (Tags/SimpleTag).

Run with Debian's python3 (python3-pil) and ffmpeg:  /usr/bin/python3 scripts/make-workflow-fixtures.py
"""
import json
import os
import subprocess
import tempfile

from PIL import Image
from PIL.PngImagePlugin import PngInfo

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "fixtures", "workflow-files")

with open(os.path.join(OUT, "api-workflow.json")) as f:
    PROMPT = json.load(f)
with open(os.path.join(OUT, "ui-workflow.json")) as f:
    WORKFLOW = json.load(f)
# What ComfyUI stores: json.dumps with its defaults (ASCII, non-ASCII escaped).
PROMPT_TEXT = json.dumps(PROMPT)
EXTRA_PNGINFO = {"workflow": WORKFLOW}


def frames(n=3, size=16):
    out = []
    for i in range(n):
        img = Image.new("RGB", (size, size))
        img.putdata([((x * 16 + i * 40) % 256, (y * 16) % 256, 128) for y in range(size) for x in range(size)])
        out.append(img)
    return out


def path(name):
    return os.path.join(OUT, name)


def save_png_text():
    meta = PngInfo()
    meta.add_text("prompt", PROMPT_TEXT)
    for key, value in EXTRA_PNGINFO.items():
        meta.add_text(key, json.dumps(value))
    frames(1)[0].save(path("image-text.png"), pnginfo=meta, compress_level=4)


def save_png_itxt():
    meta = PngInfo()
    meta.add_itxt("prompt", PROMPT_TEXT, zip=True)
    meta.add_itxt("workflow", json.dumps(WORKFLOW, ensure_ascii=False), zip=True)
    frames(1)[0].save(path("image-itxt.png"), pnginfo=meta, compress_level=4)


def save_png_ztxt():
    meta = PngInfo()
    meta.add_text("prompt", PROMPT_TEXT, zip=True)
    meta.add_text("workflow", json.dumps(WORKFLOW), zip=True)
    frames(1)[0].save(path("image-ztxt.png"), pnginfo=meta, compress_level=4)


def save_apng():
    meta = PngInfo()
    meta.add(b"comf", "prompt".encode("latin-1") + b"\0" + PROMPT_TEXT.encode("latin-1"), after_idat=True)
    for key, value in EXTRA_PNGINFO.items():
        meta.add(b"comf", key.encode("latin-1") + b"\0" + json.dumps(value).encode("latin-1"), after_idat=True)
    imgs = frames(3)
    imgs[0].save(path("animated.png"), pnginfo=meta, compress_level=4, save_all=True, duration=166, append_images=imgs[1:])


def save_webp():
    imgs = frames(3)
    exif = imgs[0].getexif()
    exif[0x0110] = "prompt:{}".format(PROMPT_TEXT)
    tag = 0x010F
    for key, value in EXTRA_PNGINFO.items():
        exif[tag] = "{}:{}".format(key, json.dumps(value))
        tag -= 1
    imgs[0].save(path("animated.webp"), save_all=True, duration=166, append_images=imgs[1:], exif=exif, lossless=True, quality=80, method=4)


def metadata_args():
    args = ["-metadata", "prompt=" + PROMPT_TEXT]
    for key, value in EXTRA_PNGINFO.items():
        args += ["-metadata", "{}={}".format(key, json.dumps(value))]
    return args


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", *args], check=True)


def save_audio():
    tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.1:sample_rate=48000", "-ac", "1"]
    ffmpeg(*tone, *metadata_args(), "-c:a", "flac", path("audio.flac"))
    ffmpeg(*tone, *metadata_args(), "-c:a", "libmp3lame", "-b:a", "32k", path("audio.mp3"))
    ffmpeg(*tone, *metadata_args(), "-c:a", "libopus", "-b:a", "16k", "-f", "opus", path("audio.opus"))


def save_video():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src.mp4")
        ffmpeg("-f", "lavfi", "-i", "testsrc=size=32x32:rate=6:duration=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", src)
        # SaveVideo: remux with the metadata, movflags=use_metadata_tags (moov stays at the end).
        ffmpeg("-i", src, "-c", "copy", "-map_metadata", "-1", *metadata_args(), "-movflags", "use_metadata_tags", path("video.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc=size=32x32:rate=6:duration=0.5", "-c:v", "libvpx-vp9", "-b:v", "20k", *metadata_args(), path("video.webm"))


if __name__ == "__main__":
    save_png_text()
    save_png_itxt()
    save_png_ztxt()
    save_apng()
    save_webp()
    save_audio()
    save_video()
    for name in sorted(os.listdir(OUT)):
        print("{:>8}  {}".format(os.path.getsize(path(name)), name))
