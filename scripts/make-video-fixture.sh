#!/bin/sh
# Makes the emulator's short video, run once by hand (the emulator only reads the file, never needs ffmpeg):
# two seconds of ffmpeg's test pattern, 160x90 at 10 fps, VP9 in WebM (every Chromium and Firefox plays it).
set -e
ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=160x90:rate=10:duration=2" \
	-c:v libvpx-vp9 -b:v 60k -pix_fmt yuv420p -an -fflags +bitexact -flags:v +bitexact -y emulator/router/provider/fixtures/clip.webm
