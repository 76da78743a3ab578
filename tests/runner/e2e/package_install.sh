#!/usr/bin/env bash
# The installable package: cpack makes shogi-arena_<version>_amd64.deb of this build; it is unpacked into a scratch
# root (dpkg-deb -x: neither root nor a container needed) and used from there alone: --version of both binaries, a
# two-game gauntlet from the installed default config (its engine found beside the installed shogi-arena, its
# openings under share/shogi-arena), and `check --quick` of the installed engine. BUILD_DIR: the build tree.
source "$(dirname "$0")/lib.sh"
[ -n "${BUILD_DIR:-}" ] && [ -f "$BUILD_DIR/CPackConfig.cmake" ] || fail "BUILD_DIR has no CPackConfig.cmake"
if ! command -v cpack >/dev/null || ! command -v dpkg-deb >/dev/null; then
  echo "SKIPPED: cpack or dpkg-deb is not installed"
  exit 77
fi

SECONDS=0
cpack -G DEB --config "$BUILD_DIR/CPackConfig.cmake" -B "$TMP/pkg" >"$TMP/cpack.log" 2>&1 ||
  fail "cpack failed: $(tail -5 "$TMP/cpack.log")"
deb=$(ls "$TMP"/pkg/shogi-arena_*_amd64.deb 2>/dev/null | head -1)
[ -f "$deb" ] || fail "no shogi-arena_<version>_amd64.deb in $(ls "$TMP/pkg")"
dpkg-deb -c "$deb" >"$TMP/contents"
for f in ./usr/bin/shogi-arena ./usr/bin/shogi-arena-engine ./usr/share/shogi-arena/configs/default.yaml \
  ./usr/share/shogi-arena/openings/balanced-24.sfen ./usr/share/doc/shogi-arena/README.md; do
  grep -q " $f\$" "$TMP/contents" || fail "the package lacks $f: $(cat "$TMP/contents")"
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libyaml-cpp libssl libstdc++6 libc6; do
  [[ $depends == *"$lib"* ]] || fail "Depends: does not name $lib: $depends"
done
pass "$(basename "$deb") in $SECONDS s: $(wc -l <"$TMP/contents") entries; Depends: $depends"

dpkg-deb -x "$deb" "$TMP/root"
usr=$TMP/root/usr
version=$("$usr/bin/shogi-arena" --version) || fail "shogi-arena --version failed"
[[ $version =~ ^shogi-arena\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ [0-9a-f]{12}(-dirty)?\)$ ]] ||
  [[ $version =~ ^shogi-arena\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ unknown\)$ ]] || fail "shogi-arena --version: '$version'"
engine_version=$("$usr/bin/shogi-arena-engine" --version) || fail "shogi-arena-engine --version failed"
[ "${engine_version#shogi-arena-engine }" = "${version#shogi-arena }" ] ||
  fail "the two binaries' versions differ: '$version' and '$engine_version'"
id=$(printf 'usi\nquit\n' | "$usr/bin/shogi-arena-engine" | sed -n 's/^id name //p')
[ "$id" = "Shogi Arena Engine $(cut -d' ' -f2 <<<"$version")" ] ||
  fail "the engine's id name does not carry the version: '$id'"

# From the installed files only: another working directory, a PATH without the build tree.
cd "$TMP"
SECONDS=0
env PATH=/usr/bin:/bin "$usr/bin/shogi-arena" run --config "$usr/share/shogi-arena/configs/default.yaml" \
  --each tc=2+0.1 --games 2 --out "$TMP/out" >"$TMP/run.log" 2>&1 || fail "the installed gauntlet: $(tail -5 "$TMP/run.log")"
grep -q "^Games scored 2 of 2 scheduled" "$TMP/run.log" || fail "unexpected summary: $(cat "$TMP/run.log")"
gauntlet_s=$SECONDS
SECONDS=0
env PATH=/usr/bin:/bin "$usr/bin/shogi-arena" check --engine cmd=shogi-arena-engine --quick >"$TMP/check.log" 2>&1 ||
  fail "check --quick of the installed engine: $(tail -5 "$TMP/check.log")"
grep -q "$usr/bin/shogi-arena-engine\|shogi-arena-engine" "$TMP/check.log" || fail "check named no engine: $(cat "$TMP/check.log")"
pass "installed: $version; a 2-game gauntlet ($gauntlet_s s) and check --quick ($SECONDS s) ran from $usr alone"
