#!/bin/sh
# Regenerates the small sample media files the synthetic multimedia catalog links to
# (public/media/). Needs ffmpeg with libvpx, libopus, libmp3lame and libx264.
# Kept tiny on purpose: together they must stay well under 400 KB in the repository.
set -eu
out="$(cd "$(dirname "$0")/../../../public/media" && pwd)"
ff="ffmpeg -hide_banner -loglevel error -y -fflags +bitexact"

# A four-note arpeggio (C5 E5 G5 C6, 0.75 s each); the sine envelope starts and ends every
# note at zero so the note changes do not click.
melody='0.4*sin(PI*mod(t,0.75)/0.75)*sin(2*PI*t*if(lt(t,0.75),523.25,if(lt(t,1.5),659.25,if(lt(t,2.25),783.99,1046.5))))'

$ff -f lavfi -i "aevalsrc=exprs='${melody}':s=8000:d=3" -c:a pcm_s16le -map_metadata -1 "$out/sample-melody.wav"
$ff -f lavfi -i "aevalsrc=exprs='${melody}':s=48000:d=3" -c:a libopus -b:a 24k -map_metadata -1 "$out/sample-melody.ogg"
$ff -f lavfi -i "aevalsrc=exprs='${melody}':s=22050:d=3" -c:a libmp3lame -b:a 32k -ac 1 -map_metadata -1 -id3v2_version 0 "$out/sample-melody.mp3"
$ff -f lavfi -i "aevalsrc=exprs='${melody}':s=22050:d=3" -c:a wmav2 -b:a 32k -ac 1 -map_metadata -1 "$out/sample-melody.wma"

# A 2.5 s test pattern with a 440 Hz tone, as VP8/Opus WebM (plays in every browser) and as
# H.264/AAC MP4 (the upstream's most common type; not every Chromium build can play it).
$ff -f lavfi -i "testsrc=size=160x120:rate=15:duration=2.5" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2.5" \
  -c:v libvpx -b:v 200k -crf 20 -auto-alt-ref 0 -c:a libopus -b:a 24k -shortest -map_metadata -1 "$out/sample-video.webm"
$ff -f lavfi -i "testsrc=size=160x120:rate=15:duration=2.5" -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=2.5" \
  -c:v libx264 -profile:v baseline -pix_fmt yuv420p -crf 28 -c:a aac -b:a 32k -ac 1 -shortest -movflags +faststart -map_metadata -1 "$out/sample-video.mp4"
