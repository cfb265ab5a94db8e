# Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# awk functions the perf scripts share (prepended to their programs).

# The median of a space-separated list of numbers.
function median(list,    n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# A size in binary units, as hdring_ab prints it: "1 KiB", "4 MiB", "~16 KiB" a little off a whole unit.
function binary_size(b,    u, w, unit) {
    split("B KiB MiB GiB", unit, " ")
    for (u = 1; u < 4 && b >= 1024 ^ u; ++u) {}
    w = 1024 ^ (u - 1)
    if (b % w == 0) return (b / w) " " unit[u]
    if (b / w >= 999.5 && u < 4) { w *= 1024; ++u }
    return sprintf("~%.3g %s", b / w, unit[u])
}
