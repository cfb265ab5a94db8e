#!/bin/bash
# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# scripts/install.sh and scripts/uninstall.sh as a user runs them, reported as TAP: on a copy of the source tree
# (the build under test stays untouched), with HOME and every directory in a scratch prefix.
# With a second Open MPI series at hand (HDRING_OTHER_OMPI, default /opt/openmpi-5.0.9 when testing 4.1), a build
# for each is installed for one user: each series' jobs load their own, and neither warns of the other's.
# Environment (set by test/Makefile.am): HDRING_SRCDIR (the source tree), OMPI_INFO.
set -u
: "${HDRING_SRCDIR:?}" "${OMPI_INFO:=ompi_info}"
series_of() { "$1" --version 2>/dev/null | sed -n 's/^Open MPI v\([0-9]*\.[0-9]*\).*/\1/p'; }
SERIES=$(series_of "$OMPI_INFO")

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
tar -C "$HDRING_SRCDIR" --exclude='./_build*' --exclude=./.git -cf - . | tar -C "$src" -xf -
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
if [ $rc -eq 0 ] && [ "$value" = "-1" ] && has "^install.sh: hdring is off for Open MPI $SERIES \\(priority -1\\)"; then
    pass "install.sh --opt-in after a default build: it says off, and ompi_info reads coll_hdring_priority -1"
else
    fail "install.sh --opt-in after a default build: it says off, and ompi_info reads coll_hdring_priority -1 (read '$value')"
fi

comp=$HOME/.openmpi/components build=$HOME/.openmpi/hdring/$SERIES bin=$HOME/.local/bin
listed=$(cat "$build/hdring.manifest" "$comp/hdring.manifest" 2>/dev/null | grep -v '^#' | grep -v '/$' | sort)
expected=$(printf '%s\n' "$build/help-coll-hdring.txt" "$build/mca_coll_hdring.so" "$build/hdring-tune" \
    "$comp/mca_coll_hdring.so" "$bin/hdring-tune" | sort)
found=$(find "$HOME" -type f ! -name hdring.manifest | sort)
if [ "$listed" = "$expected" ] && [ "$found" = "$expected" ] && has "^install.sh: installed .* $bin/hdring-tune" &&
    has "^install.sh: $bin is not on your PATH: export PATH=\"$bin:\\\$PATH\""; then
    pass "the manifest lists exactly the files installed; install.sh says where each went and how to reach hdring-tune"
else
    fail "the manifest lists exactly the files installed; install.sh says where each went and how to reach hdring-tune"
    printf '# listed:\n%s\n# found:\n%s\n' "$listed" "$found" | sed 's/^/#   /'
fi

"$src/scripts/install.sh" >"$LOG" 2>&1
rc=$? value=$(priority)
if [ $rc -eq 0 ] && [ "$value" = "40" ] && has "^install.sh: Open MPI $SERIES jobs that find this directory now use hdring"; then
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
    [ "$(grep -c '^uninstall.sh: removed /' "$LOG")" -eq 7 ] && [ -z "$(priority)" ]; then
    pass "uninstall.sh removes the manifest's files and no other, and says each"
else
    fail "uninstall.sh removes the manifest's files and no other, and says each"
    printf '%s\n' "$left" | sed 's/^/#   left: /'
fi
# the directories install.sh made go when empty ($HOME/.openmpi); one that holds another's file stays, said
if [ ! -e "$HOME/.openmpi" ] && [ -d "$bin" ] && has "^uninstall.sh: removed the empty directory $HOME/.openmpi, which install.sh made$" &&
    has "^uninstall.sh: kept $bin, which install.sh made: other files are in it$" && has '^uninstall.sh: nothing else was touched$'; then
    pass "uninstall.sh removes the directories install.sh made once they are empty, and keeps one holding another's file"
else
    fail "uninstall.sh removes the directories install.sh made once they are empty, and keeps one holding another's file"
    find "$HOME" | sed 's/^/#   left: /'
fi
"$src/scripts/uninstall.sh" >"$LOG" 2>&1
if [ $? -eq 0 ] && has '^uninstall.sh: scripts/install.sh installed nothing in .*; nothing removed$' &&
    [ -f "$bin/hdring-tune.old" ]; then
    pass "uninstall.sh where nothing is installed: says so, removes nothing"
else
    fail "uninstall.sh where nothing is installed: says so, removes nothing"
fi

# Two series for one user: a build for each, one loader where both look
other=${HDRING_OTHER_OMPI-}
[ -n "$other" ] || [ "$SERIES" != 4.1 ] || other=/opt/openmpi-5.0.9
if [ -n "$other" ] && [ -x "$other/bin/ompi_info" ]; then
    other_series=$(series_of "$other/bin/ompi_info")
    rm -f "$bin/hdring-tune.old"
    # 'API v' is the coll interface each series' build reports: 2.3.0 for 4.1, 2.4.0 for 5.0
    listing() { "$1" 2>&1 | grep -i 'hdring\|unable to open' || :; }
    "$src/scripts/install.sh" >"$LOG" 2>&1 && "$src/scripts/install.sh" --with-ompi "$other" >>"$LOG" 2>&1
    rc=$? mine=$(listing "$OMPI_INFO") theirs=$(listing "$other/bin/ompi_info")
    if [ $rc -eq 0 ] && [ "$(echo "$mine" | wc -l)" -eq 1 ] && [ "$(echo "$theirs" | wc -l)" -eq 1 ] &&
        echo "$mine" | grep -q 'MCA coll: hdring .*Component v[1-9]\|MCA coll: hdring .*Component v0\.[1-9]' &&
        echo "$theirs" | grep -q 'MCA coll: hdring .*Component v[1-9]\|MCA coll: hdring .*Component v0\.[1-9]' &&
        [ "$mine" != "$theirs" ] && has "^install.sh: builds installed for this user: .*$SERIES" &&
        has "^install.sh: builds installed for this user: .*$other_series" &&
        has "^install.sh: Open MPI $other_series jobs that find this directory now use hdring" &&
        has "^install.sh: Open MPI $SERIES keeps the build installed for it, on or opt-in as it was"; then
        pass "builds for Open MPI $SERIES and $other_series installed for one user: each series lists its own, no warning; the second install says it changed only its series"
    else
        fail "builds for Open MPI $SERIES and $other_series installed for one user: each series lists its own, no warning; the second install says it changed only its series"
        printf '%s\n' "$mine" "$theirs" | sed 's/^/#   listed: /'
    fi
    "$src/scripts/uninstall.sh" --series "$other_series" >"$LOG" 2>&1
    rc=$? mine=$(listing "$OMPI_INFO") theirs=$(listing "$other/bin/ompi_info")
    if [ $rc -eq 0 ] && [ -z "$theirs" ] && echo "$mine" | grep -q 'MCA coll: hdring' &&
        has "^uninstall.sh: builds still installed for: $SERIES " && [ -f "$comp/mca_coll_hdring.so" ]; then
        pass "uninstall.sh --series $other_series: that series runs without hdring and says nothing of it; $SERIES keeps its own"
    else
        fail "uninstall.sh --series $other_series: that series runs without hdring and says nothing of it; $SERIES keeps its own"
        printf '%s\n' "$mine" "$theirs" | sed 's/^/#   listed: /'
    fi
    "$src/scripts/uninstall.sh" >"$LOG" 2>&1
    # $HOME/.local/bin was there before these installs (emptied above): it stays; $HOME/.openmpi they made
    if [ $? -eq 0 ] && [ -z "$(find "$HOME" -type f)" ] &&
        [ "$(find "$HOME" -mindepth 1 | sort)" = "$(printf '%s\n' "$HOME/.local" "$bin")" ]; then
        pass "uninstall.sh after both: every file gone, and every directory the installs made; $bin, there before, stays"
    else
        fail "uninstall.sh after both: every file gone, and every directory the installs made; $bin, there before, stays"
        find "$HOME" -mindepth 1 | sed 's/^/#   left: /'
    fi

else
    echo "# no second Open MPI series at hand (${other:-none}): the two-series checks are skipped"
fi

echo "1..$n"
echo "# $((n - nfailed)) passed, $nfailed failed"
[ "$nfailed" -eq 0 ]
