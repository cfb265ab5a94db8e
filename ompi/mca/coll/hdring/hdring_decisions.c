/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring decisions files: see hdring_decisions.h. */
#include "hdring_decisions.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_select.h"

const char hdring_decisions_header[] =
    "# hdring decisions (coll_hdring_decisions_file): the first line that matches a call decides it.\n"
    "# p and per_node: the communicator's size and ranks per node, * for any; sizes: the whole vector in bytes,\n"
    "# both ends included; algorithm: the collective's, or fallback (the MPI library's own). What follows is a\n"
    "# note: hdring writes the slowest rank's median time of each candidate it measured there.\n"
    "# p  per_node  collective  from_bytes  to_bytes  algorithm  measured\n";

bool hdring_decisions_add(hdring_decisions_t *d, const hdring_decision_t *e)
{
    if (d->n == d->room) {
        const int room = d->room > 0 ? 2 * d->room : 16;
        hdring_decision_t *grown = realloc(d->d, (size_t) room * sizeof(*grown));
        if (NULL == grown) {
            return false;
        }
        d->d = grown;
        d->room = room;
    }
    d->d[d->n++] = *e;
    return true;
}

/* A count or "*" (any, or no end: `star`). */
static bool read_number(const char *field, unsigned long long star, unsigned long long max, unsigned long long *out)
{
    if (0 == strcmp(field, "*")) {
        *out = star;
        return true;
    }
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(field, &end, 10);
    if ('-' == field[0] || end == field || '\0' != *end || 0 != errno || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* One line's decision: 1, 0 for a line without one (blank, comment), -1 for a line it cannot read (why in err). */
static int parse_line(char *line, const hdring_decisions_colls_t *colls, hdring_decision_t *e, char *err,
                      size_t errlen)
{
    char *hash = strchr(line, '#');
    if (NULL != hash) {
        *hash = '\0';
    }
    char *save = NULL, *field[6];
    int n = 0;
    for (char *f = strtok_r(line, " \t\r", &save); NULL != f && n < 6; f = strtok_r(NULL, " \t\r", &save)) {
        field[n++] = f;
    }
    if (0 == n) {
        return 0;
    }
    if (n < 6) {
        snprintf(err, errlen, "%d fields, not 6 (p per_node collective from_bytes to_bytes algorithm)", n);
        return -1;
    }
    unsigned long long p, ppn, lo, hi;
    if (!read_number(field[0], (unsigned long long) -1, INT32_MAX, &p) ||
        !read_number(field[1], (unsigned long long) -1, INT32_MAX, &ppn) || 0 == p) {
        snprintf(err, errlen, "p and per_node are counts (p at least 1) or *, not \"%s\" and \"%s\"", field[0],
                 field[1]);
        return -1;
    }
    e->p = (unsigned long long) -1 == p ? HDRING_DECISIONS_ANY : (int) p;
    e->ppn = (unsigned long long) -1 == ppn ? HDRING_DECISIONS_ANY : (int) ppn;
    e->coll = -1;
    for (int c = 0; c < colls->n; ++c) {
        if (0 == strcmp(field[2], colls->names[c])) {
            e->coll = c;
        }
    }
    if (e->coll < 0) {
        snprintf(err, errlen, "no collective \"%s\"", field[2]);
        return -1;
    }
    if (!read_number(field[3], 0, SIZE_MAX, &lo) || !read_number(field[4], SIZE_MAX, SIZE_MAX, &hi) || lo > hi) {
        snprintf(err, errlen, "sizes \"%s\" to \"%s\": from_bytes a count, to_bytes a count or *, from <= to",
                 field[3], field[4]);
        return -1;
    }
    e->lo = (size_t) lo;
    e->hi = (size_t) hi;
    if (0 == strcmp(field[5], "fallback")) {
        e->pick = HDRING_PICK_FALLBACK;
    } else {
        const hdring_alg_t alg = hdring_alg_by_name(colls->core[e->coll], field[5]);
        if (HDRING_NALGS == alg) {
            snprintf(err, errlen, "%s has no algorithm \"%s\"", field[2], field[5]);
            return -1;
        }
        e->pick = (int) alg;
    }
    return 1;
}

int hdring_decisions_parse(const char *text, const hdring_decisions_colls_t *colls, hdring_decisions_t *d,
                           char *err, size_t errlen)
{
    int bad = 0, number = 0;
    err[0] = '\0';
    for (const char *at = text; NULL != at && '\0' != *at;) {
        const char *end = strchr(at, '\n');
        const size_t len = NULL == end ? strlen(at) : (size_t) (end - at);
        char line[1024], why[256];
        hdring_decision_t e;
        ++number;
        int got;
        if (len >= sizeof(line)) {
            snprintf(why, sizeof(why), "longer than %zu characters", sizeof(line) - 1);
            got = -1;
        } else {
            memcpy(line, at, len);
            line[len] = '\0';
            got = parse_line(line, colls, &e, why, sizeof(why));
        }
        if (got < 0 && 0 == bad++) {
            snprintf(err, errlen, "line %d: %s", number, why);
        }
        if (got > 0 && !hdring_decisions_add(d, &e)) {
            return -1;
        }
        at = NULL == end ? NULL : end + 1;
    }
    return bad;
}

const hdring_decision_t *hdring_decisions_find(const hdring_decisions_t *d, int p, int ppn, int coll, size_t bytes)
{
    for (int i = 0; i < d->n; ++i) {
        const hdring_decision_t *e = &d->d[i];
        if (e->coll == coll && (HDRING_DECISIONS_ANY == e->p || e->p == p) &&
            (HDRING_DECISIONS_ANY == e->ppn || e->ppn == ppn) && e->lo <= bytes && bytes <= e->hi) {
            return e;
        }
    }
    return NULL;
}

void hdring_decisions_format(const hdring_decision_t *e, const hdring_decisions_colls_t *colls, const char *note,
                             char *out, size_t len)
{
    char p[16] = "*", ppn[16] = "*", hi[32] = "*";
    if (HDRING_DECISIONS_ANY != e->p) {
        snprintf(p, sizeof(p), "%d", e->p);
    }
    if (HDRING_DECISIONS_ANY != e->ppn) {
        snprintf(ppn, sizeof(ppn), "%d", e->ppn);
    }
    if (SIZE_MAX != e->hi) {
        snprintf(hi, sizeof(hi), "%zu", e->hi);
    }
    snprintf(out, len, "%-4s %-4s %-20s %10zu %10s  %-18s%s%s", p, ppn, colls->names[e->coll], e->lo, hi,
             hdring_pick_name(e->pick), NULL != note && '\0' != note[0] ? "  " : "", NULL != note ? note : "");
}

void hdring_decisions_free(hdring_decisions_t *d)
{
    free(d->d);
    d->d = NULL;
    d->n = d->room = 0;
}
