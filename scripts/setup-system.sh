#!/usr/bin/env bash
# Installs the Debian packages the project needs beyond npm:
#   chromium + a CJK font  (browser tests; Chinese renders as boxes without the font)
#   ffmpeg                 (video frames for previews)
#   poppler-utils          (PDF / AI first-page previews)
#   prometheus             (promtool: the metrics test checks GET /metrics with `promtool check metrics`)
#   postgresql-client      (pg_dump / pg_restore: backups on PostgreSQL and their tests)
#   perl                   (runs the ExifTool that exiftool-vendored brings: embedded metadata, issue 42)
#   libimage-exiftool-perl (Debian's own ExifTool: the tests' independent writer and reader of metadata)
#   liblcms2-utils         (LittleCMS's tificc/transicc: the colour tests' and benchmark's reference)
#   libgs-common, argyll-ref (a CMYK (Artifex SWOP) and a Display P3 / Adobe RGB profile for those tests)
# Runs apt-get when something is missing and we are root; otherwise names the command to run.
# The app itself starts without them and says what is missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if ! command -v fc-list >/dev/null 2>&1 || [ -z "$(fc-list :lang=zh 2>/dev/null | head -n1)" ]; then
  missing+=(fonts-wqy-zenhei)
fi
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v pg_dump >/dev/null 2>&1 || missing+=(postgresql-client)
command -v perl >/dev/null 2>&1 || missing+=(perl)
command -v exiftool >/dev/null 2>&1 || missing+=(libimage-exiftool-perl)
command -v tificc >/dev/null 2>&1 || missing+=(liblcms2-utils)
[ -f /usr/share/color/icc/ghostscript/default_cmyk.icc ] || missing+=(libgs-common)
[ -f /usr/share/color/argyll/ref/DisplayP3.icm ] || missing+=(argyll-ref)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing system packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  echo "setup: installed ${missing[*]}"
else
  echo "setup: cannot install as a normal user. Run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
