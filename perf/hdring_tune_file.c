/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring-tune without MPI: see hdring_tune_file.h. */
#define _GNU_SOURCE /* vasprintf */
#include "hdring_tune_file.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN_MARK "# >>> hdring-tune: coll/hdring's cost model, measured (hdring-tune rewrites this block)"
#define END_MARK "# <<< hdring-tune"
#define REPLACED "# replaced by hdring-tune: "

static const char *const names[HDRING_TUNE_NPARAMS] = {
    [HDRING_TUNE_LATENCY_US] = "coll_hdring_model_latency_us",
    [HDRING_TUNE_BANDWIDTH_MBS] = "coll_hdring_model_bandwidth_mbs",
    [HDRING_TUNE_NETWORK_LATENCY_US] = "coll_hdring_model_network_latency_us",
    [HDRING_TUNE_NETWORK_BANDWIDTH_MBS] = "coll_hdring_model_network_bandwidth_mbs",
    [HDRING_TUNE_NETWORK_EXCHANGE_MBS] = "coll_hdring_model_network_exchange_mbs",
    [HDRING_TUNE_REDUCE_MBS] = "coll_hdring_model_reduce_mbs",
};

const char *hdring_tune_param_name(hdring_tune_param_t p) { return names[p]; }

/* MB/s of `bytes` moved in `seconds` by each of `flows` streams; 0 when no time is left for them. */
static double rate_mbs(double bytes, double seconds, int flows)
{
    return seconds > 0 && isfinite(seconds) ? flows * bytes / seconds * 1e-6 : 0;
}

bool hdring_tune_fit(const hdring_tune_timings_t *t, hdring_tune_params_t *out)
{
    hdring_tune_params_t p = {{false}, {0}};
    const hdring_tune_link_t *node = &t->node, *net = &t->network;

    if (node->measured) {
        p.value[HDRING_TUNE_LATENCY_US] = node->latency * 1e6;
        p.value[HDRING_TUNE_BANDWIDTH_MBS] = rate_mbs(t->bytes, node->exchange - node->latency, node->flows);
        p.set[HDRING_TUNE_LATENCY_US] = p.set[HDRING_TUNE_BANDWIDTH_MBS] = true;
    }
    if (net->measured) {
        p.value[HDRING_TUNE_NETWORK_LATENCY_US] = net->latency * 1e6;
        p.value[HDRING_TUNE_NETWORK_BANDWIDTH_MBS] = rate_mbs(t->bytes, net->one_way - 2 * net->latency, net->flows);
        p.value[HDRING_TUNE_NETWORK_EXCHANGE_MBS] = rate_mbs(t->bytes, net->exchange - net->latency, net->flows);
        p.set[HDRING_TUNE_NETWORK_LATENCY_US] = p.set[HDRING_TUNE_NETWORK_BANDWIDTH_MBS] =
            p.set[HDRING_TUNE_NETWORK_EXCHANGE_MBS] = true;
    }
    p.value[HDRING_TUNE_REDUCE_MBS] = rate_mbs(t->bytes, t->reduce, 1);
    p.set[HDRING_TUNE_REDUCE_MBS] = true;

    for (int i = 0; i < HDRING_TUNE_NPARAMS; ++i) {
        const bool latency = HDRING_TUNE_LATENCY_US == i || HDRING_TUNE_NETWORK_LATENCY_US == i;
        if (p.set[i] && !(isfinite(p.value[i]) && (latency ? p.value[i] >= 0 : p.value[i] > 0))) {
            return false;
        }
    }
    *out = p;
    return true;
}

double hdring_tune_disagreement(const hdring_tune_params_t *a, const hdring_tune_params_t *b,
                                hdring_tune_param_t *which)
{
    double worst = 0;
    *which = HDRING_TUNE_NPARAMS;
    for (int i = 0; i < HDRING_TUNE_NPARAMS; ++i) {
        if (!a->set[i] || !b->set[i]) {
            continue;
        }
        const double x = a->value[i], y = b->value[i], larger = x > y ? x : y;
        const double d = larger > 0 ? fabs(x - y) / larger : 0;
        if (HDRING_TUNE_NPARAMS == *which || d > worst) {
            worst = d;
            *which = (hdring_tune_param_t) i;
        }
    }
    return worst;
}

/* A growing string. */
typedef struct text {
    char *s;
    size_t len, cap;
    bool failed;
} text_t;

static void add(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->failed || n < 0) {
        t->failed = true;
        return;
    }
    if (t->len + (size_t) n + 1 > t->cap) {
        const size_t cap = 2 * (t->len + (size_t) n + 1);
        char *grown = realloc(t->s, cap);
        if (NULL == grown) {
            t->failed = true;
            return;
        }
        t->s = grown;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t) n;
}

static char *finish(text_t *t)
{
    if (t->failed || NULL == t->s) {
        free(t->s);
        return t->failed ? NULL : calloc(1, 1);
    }
    return t->s;
}

int hdring_tune_fastest(const hdring_tune_point_t *pt)
{
    int best = 0;
    for (int a = 1; a < pt->n; ++a) {
        best = pt->time[a] < pt->time[best] ? a : best;
    }
    return best;
}

static double fastest(const hdring_tune_point_t *pt) { return pt->time[hdring_tune_fastest(pt)]; }

static bool near_fastest(const hdring_tune_point_t *pt, double t, double tolerance)
{
    return t <= (1 + tolerance) * fastest(pt);
}

bool hdring_tune_wrong(const hdring_tune_point_t *pt, double t, double tolerance)
{
    return !pt->noisy && t > (1 + tolerance + pt->noise) * fastest(pt);
}

/* Whether a threshold may give the point to the contender (which then wins it within the tolerance). */
static bool may_give(const hdring_tune_point_t *pt, int contender, double tolerance)
{
    return !pt->noisy && near_fastest(pt, pt->time[contender], tolerance);
}

hdring_tune_thresholds_t hdring_tune_thresholds(const hdring_tune_point_t *pts, int n, int latency, int bandwidth,
                                                double tolerance)
{
    hdring_tune_thresholds_t th = {0, 0, 0};
    int last_small = -1, first_large = n;

    /* small: to the last wrong point of the run from the first point where `latency` is near the fastest */
    for (int i = 0; latency >= 0 && i < n && may_give(&pts[i], latency, tolerance); ++i) {
        last_small = hdring_tune_wrong(&pts[i], pts[i].chosen, tolerance) ? i : last_small;
    }
    /* large: from the first wrong point of the run to the last point, after small's, where `bandwidth` is near */
    for (int i = n - 1; bandwidth >= 0 && i > last_small && may_give(&pts[i], bandwidth, tolerance); --i) {
        first_large = hdring_tune_wrong(&pts[i], pts[i].chosen, tolerance) ? i : first_large;
    }
    th.small = last_small >= 0 ? pts[last_small].bytes : 0;
    th.large = first_large < n ? pts[first_large].bytes : 0;
    for (int i = 0; i < n; ++i) {
        const double t = i <= last_small ? pts[i].time[latency] : i >= first_large ? pts[i].time[bandwidth]
                                                                                     : pts[i].chosen;
        th.unresolved += hdring_tune_wrong(&pts[i], t, tolerance);
    }
    return th;
}

/* The gap between points i and i + 1, if both exist and it is wider than the refine ratio: its geometric middle. */
static double gap_middle(const hdring_tune_point_t *pts, int n, int i)
{
    return i >= 0 && i + 1 < n && pts[i + 1].bytes > pts[i].bytes * HDRING_TUNE_REFINE_RATIO
               ? sqrt(pts[i].bytes * pts[i + 1].bytes)
               : 0;
}

double hdring_tune_refine(const hdring_tune_point_t *pts, int n, hdring_tune_thresholds_t th)
{
    double above_small = 0, below_large = 0;
    for (int i = 0; i < n; ++i) {
        above_small = th.small > 0 && pts[i].bytes == th.small ? gap_middle(pts, n, i) : above_small;
        below_large = th.large > 0 && pts[i].bytes == th.large ? gap_middle(pts, n, i - 1) : below_large;
    }
    return 0 != above_small ? above_small : below_large;
}

void hdring_tune_add_line(hdring_tune_lines_t *l, const char *fmt, ...)
{
    va_list ap;
    char *line = NULL;
    char **grown = realloc(l->text, ((size_t) l->n + 1) * sizeof(*l->text));
    if (NULL != grown) {
        l->text = grown;
        va_start(ap, fmt);
        if (vasprintf(&line, fmt, ap) < 0) {
            line = NULL;
        }
        va_end(ap);
    }
    if (NULL == line) {
        l->failed = true;
        return;
    }
    l->text[l->n++] = line;
}

void hdring_tune_lines_free(hdring_tune_lines_t *l)
{
    for (int i = 0; i < l->n; ++i) {
        free(l->text[i]);
    }
    free(l->text);
    *l = (hdring_tune_lines_t){0};
}

char *hdring_tune_block(const hdring_tune_params_t *p, const char *const *comments, int ncomments,
                        const char *const *settings, int nsettings)
{
    text_t t = {NULL, 0, 0, false};
    for (int i = 0; i < nsettings; ++i) {
        if (0 != strncmp(settings[i], "coll_hdring_", strlen("coll_hdring_"))) {
            return NULL;
        }
    }
    add(&t, "%s\n", BEGIN_MARK);
    for (int i = 0; i < ncomments; ++i) {
        add(&t, "# %s\n", comments[i]);
    }
    for (int i = 0; i < HDRING_TUNE_NPARAMS; ++i) {
        if (p->set[i]) {
            const bool latency = HDRING_TUNE_LATENCY_US == i || HDRING_TUNE_NETWORK_LATENCY_US == i;
            add(&t, latency ? "%s = %.3f\n" : "%s = %.0f\n", names[i], p->value[i]);
        }
    }
    for (int i = 0; i < nsettings; ++i) {
        add(&t, "%s\n", settings[i]);
    }
    add(&t, "%s\n", END_MARK);
    return finish(&t);
}

/* The parameter a line of an MCA parameter file sets ("name = value", blanks allowed), as a pointer into the line
 * and its length; 0 for comments and blank lines. */
static size_t set_name(const char *line, size_t len, const char **name)
{
    size_t i = 0, n;
    while (i < len && (' ' == line[i] || '\t' == line[i])) {
        ++i;
    }
    if (i == len || '#' == line[i]) {
        return 0;
    }
    *name = line + i;
    for (n = 0; i + n < len && '=' != line[i + n] && ' ' != line[i + n] && '\t' != line[i + n]; ++n) {
    }
    return n;
}

/* Whether the block (its "name = value" lines) sets the parameter `name` of length n. */
static bool block_sets(const char *block, const char *name, size_t n)
{
    for (const char *line = block; '\0' != *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = NULL == end ? strlen(line) : (size_t) (end - line);
        const char *other;
        const size_t m = set_name(line, len, &other);
        if (m == n && 0 == strncmp(other, name, n)) {
            return true;
        }
        line += len + (NULL != end);
    }
    return false;
}

char *hdring_tune_merge(const char *existing, const char *block)
{
    text_t t = {NULL, 0, 0, false};
    bool in_block = false;

    for (const char *line = NULL == existing ? "" : existing; '\0' != *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = NULL == end ? strlen(line) : (size_t) (end - line);
        const char *name;
        const size_t n = set_name(line, len, &name);
        if (!in_block && 0 == strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK))) {
            in_block = true;
        } else if (in_block) {
            in_block = 0 != strncmp(line, END_MARK, strlen(END_MARK));
        } else if (n > 0 && block_sets(block, name, n)) {
            add(&t, REPLACED "%.*s\n", (int) len, line);
        } else {
            add(&t, "%.*s\n", (int) len, line);
        }
        line += len + (NULL != end);
    }
    add(&t, "%s", block);
    return finish(&t);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int hdring_tune_sizes(const hdring_plan_t *plan, double *sizes)
{
    double want[HDRING_TUNE_MAX_SIZES];
    int n = 0, kept = 0;
    for (double grid = HDRING_TUNE_SMALLEST; grid <= HDRING_TUNE_LARGEST; grid *= HDRING_TUNE_GRID_STEP) {
        want[n++] = grid;
    }
    for (int s = 0; s + 1 < plan->nsegments; ++s) {
        const double crossover = (double) plan->seg[s].upto + 1;
        if (crossover > HDRING_TUNE_SMALLEST && crossover < HDRING_TUNE_LARGEST) {
            want[n++] = fmax(crossover / 2, HDRING_TUNE_SMALLEST);
            want[n++] = fmin(crossover * 2, HDRING_TUNE_LARGEST);
        }
    }
    qsort(want, (size_t) n, sizeof(want[0]), cmp_double);
    for (int i = 0; i < n; ++i) {
        if (0 == kept || want[i] > 1.5 * sizes[kept - 1]) {
            sizes[kept++] = want[i];
        }
    }
    return kept;
}

int hdring_tune_companion_size(int p)
{
    int q = 1;
    while (2 * q < p) {
        q *= 2;
    }
    q = 0 == (p & (p - 1)) ? p - 1 : q;
    return q >= HDRING_TUNE_MIN_THRESHOLD_RANKS ? q : 0;
}
