#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/install.sh and scripts/uninstall.sh as a user runs them, reported as TAP: on a copy of the source tree
# (the build under test stays untouched), with HOME and every directory in a scratch prefix.
# Environment (set by test/Makefile.am): HDRING_SRCDIR (the source tree), OMPI_INFO.
set -u
: "${HDRING_SRCDIR:?}" "${OMPI_INFO:=ompi_info}"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
LOG=$scratch/log
n=0 nfailed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() {
    n=$((n + 1)) nfailed=$((nfailed + 1))
    echo "not ok $n - $1"
    tail -n 30 "$LOG" | sed 's/^/#   /'
}
has() { grep -Eq -- "$1" "$LOG"; }

src=$scratch/src
mkdir -p "$src" "$scratch/home"
tar -C "$HDRING_SRCDIR" --exclude=./_build --exclude=./.git -cf - . | tar -C "$src" -xf -
export HOME=$scratch/home
# the value of coll_hdring_priority that Open MPI reads from the component installed for this user
priority() {
    "$OMPI_INFO" --param coll hdring --level 9 --parsable 2>/dev/null |
        sed -n 's/^mca:coll:hdring:param:coll_hdring_priority:value://p'
}

echo "# building twice in a copy of the source tree: a few minutes"
"$src/scripts/build.sh" >"$LOG" 2>&1 || { fail "scripts/build.sh in a copy of the source tree"; echo "1..$n"; exit 1; }
"$src/scripts/install.sh" --opt-in >"$LOG" 2>&1
rc=$? value=$(priority)
if [ $rc -eq 0 ] && [ "$value" = "-1" ] && has '^install.sh: hdring is off \(priority -1\)'; then
    pass "install.sh --opt-in after a default build: it says off, and ompi_info reads coll_hdring_priority -1"
else
    fail "install.sh --opt-in after a default build: it says off, and ompi_info reads coll_hdring_priority -1 (read '$value')"
fi

comp=$HOME/.openmpi/components bin=$HOME/.local/bin
listed=$(grep -v '^#' "$comp/hdring.manifest" 2>/dev/null | sort)
expected=$(printf '%s\n' "$comp/help-coll-hdring.txt" "$comp/mca_coll_hdring.so" "$bin/hdring-tune" | sort)
found=$(find "$HOME" -type f ! -name hdring.manifest | sort)
if [ "$listed" = "$expected" ] && [ "$found" = "$expected" ] && has "^install.sh: installed $bin/hdring-tune" &&
    has "^install.sh: $bin is not on your PATH: export PATH=\"$bin:\\\$PATH\""; then
    pass "the manifest lists exactly the files installed; install.sh says where each went and how to reach hdring-tune"
else
    fail "the manifest lists exactly the files installed; install.sh says where each went and how to reach hdring-tune"
    printf '# listed:\n%s\n# found:\n%s\n' "$listed" "$found" | sed 's/^/#   /'
fi

"$src/scripts/install.sh" >"$LOG" 2>&1
rc=$? value=$(priority)
if [ $rc -eq 0 ] && [ "$value" = "40" ] && has '^install.sh: MPI jobs that find this directory now use hdring'; then
    pass "install.sh after an opt-in build: ompi_info reads coll_hdring_priority 40"
else
    fail "install.sh after an opt-in build: ompi_info reads coll_hdring_priority 40 (read '$value')"
fi

# files install.sh did not put there stay: someone else's hdring-tune, a component in a directory of its own
mkdir -p "$scratch/elsewhere"
echo other >"$bin/hdring-tune.old"
echo other >"$scratch/elsewhere/mca_coll_hdring.so"
"$src/scripts/uninstall.sh" >"$LOG" 2>&1
rc=$?
left=$(find "$HOME" "$scratch/elsewhere" -type f | sort)
if [ $rc -eq 0 ] && [ "$left" = "$(printf '%s\n' "$bin/hdring-tune.old" "$scratch/elsewhere/mca_coll_hdring.so" | sort)" ] &&
    [ "$(grep -c '^uninstall.sh: removed ' "$LOG")" -eq 4 ] && [ -z "$(priority)" ]; then
    pass "uninstall.sh removes the manifest's files and no other, and says each"
else
    fail "uninstall.sh removes the manifest's files and no other, and says each"
    printf '%s\n' "$left" | sed 's/^/#   left: /'
fi
"$src/scripts/uninstall.sh" >"$LOG" 2>&1
if [ $? -eq 0 ] && has '^uninstall.sh: scripts/install.sh installed nothing in .*; nothing removed$' &&
    [ -f "$bin/hdring-tune.old" ]; then
    pass "uninstall.sh where nothing is installed: says so, removes nothing"
else
    fail "uninstall.sh where nothing is installed: says so, removes nothing"
fi

echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
