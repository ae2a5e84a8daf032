#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Debian package of onnxtool (CPack; dependencies from dpkg-shlibdeps) into build/.
#   scripts/package.sh          build build/onnxtool_<version>_<arch>.deb
#   scripts/package.sh --test   ... then install it, use it (--version, man page, bash
#                               completion) and purge it again; run as root on Debian
set -euo pipefail
cd "$(dirname "$0")/.."
test_it=0
[ "${1:-}" = "--test" ] && test_it=1

[ -f build/CMakeCache.txt ] || scripts/setup.sh
cmake --build build -j2 --target onnxtool man_pages
(cd build && cpack -G DEB >/dev/null)
deb=$(ls -t build/onnxtool_*.deb | head -1)
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\|Recommends\):/  \1:/p'
dpkg-deb --contents "$deb" | awk '{print "  " $6}'
[ $test_it = 1 ] || exit 0

echo "== dpkg -i"
dpkg -i "$deb"
trap 'dpkg --purge onnxtool >/dev/null 2>&1 || true' EXIT
echo "\$ onnxtool --version"
/usr/bin/onnxtool --version
echo "\$ man -l /usr/share/man/man1/onnxtool-check.1 | head"
if command -v man >/dev/null; then
  MANPAGER=cat MANWIDTH=80 man -l /usr/share/man/man1/onnxtool-check.1 | head -12
else
  # No man-db here: render the page with groff, as man would.
  groff -man -Tutf8 /usr/share/man/man1/onnxtool-check.1 | head -12
fi
if command -v man >/dev/null; then
  echo "\$ man onnxtool-check | head -3   (from the man database, as installed)"
  MANPAGER=cat MANWIDTH=80 man onnxtool-check | head -3
fi
echo "\$ bash completion of 'onnxtool ch'"
bash -c 'source /usr/share/bash-completion/completions/onnxtool
         COMP_WORDS=(onnxtool ch); COMP_CWORD=1; _onnxtool; echo "  ${COMPREPLY[*]}"'
echo "\$ bash completion of 'onnxtool check --format '"
bash -c 'source /usr/share/bash-completion/completions/onnxtool
         COMP_WORDS=(onnxtool check --format ""); COMP_CWORD=3; _onnxtool; echo "  ${COMPREPLY[*]}"'
echo "== dpkg --purge"
dpkg --purge onnxtool
trap - EXIT
if [ -e /usr/bin/onnxtool ] || [ -e /usr/share/man/man1/onnxtool.1 ]; then
  echo "package: files left after purge" >&2
  exit 1
fi
echo "package: installed, used and purged cleanly"
