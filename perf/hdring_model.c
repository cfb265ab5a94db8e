/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_model: the cost model (hdring_cost.h) and the plans the component builds from it (hdring_plan.h), as
 * tables, with the component's own parameters, units and defaults.
 *
 *   hdring_model [--coll NAME|all] [--p LIST | SHAPE] [--bytes LIST] [MODEL]     predicted times and the winner
 *   hdring_model --crossovers [--coll NAME|all] [--p LIST | SHAPE] [--small-bytes B] [--large-bytes B] [MODEL]
 *   hdring_model [--network] --fit FILE.csv
 *   hdring_model [MODEL] --regret FILE.csv
 *
 * SHAPE: --nodes N [--ppn L] [--mapping slot|node]: a communicator of N nodes x L ranks (default 1), ranks mapped
 * by slot (node by node) or by node (round-robin); without it, p ranks on one node. --cores C: C cores per node
 * for its ranks (the trace's "C cores each"; 0, the default: a core per rank). --machine-cores C: the N nodes
 * run on one machine of C cores (the trace's ", on one machine of C cores": containers or network
 * namespaces, as perf/cluster emulates them; 0, the default: every node a machine of its own).
 * MODEL: --latency-us US --bandwidth-mbs MBS --reduce-mbs MBS (coll_hdring_model_*: within a node) and
 * --network-latency-us US --network-bandwidth-mbs MBS [--network-exchange-mbs MBS] (coll_hdring_model_network_*:
 * between nodes), --eager-bytes B and --network-eager-bytes B (the largest message sent without a rendezvous;
 * 0: none); defaults: the component's. --network (before --fit) reads the fit as the network parameters.
 *
 * The tables give each algorithm's predicted time in microseconds for every p and size (bytes: the whole vector,
 * as coll_hdring_verbose reports it). --crossovers prints the plan the component builds for that p: the
 * algorithm per size range and why, exactly the ranges its trace reports. --fit reads measurements (hdring_ab
 * --compare --csv: collective, p, algorithm, bytes, microseconds) and searches a grid of the three parameters for
 * the values whose choices lose least against the measured fastest algorithm (the geometric mean of measured time
 * of the model's choice over the best measured time); it prints them as MCA parameters with that regret and the
 * worst case, and warns when a value sits on the edge of the grid or the data cannot pin it down. --regret
 * reports that loss for the parameters given before it, and the ten points where the model's pick loses most.
 * With --network the fit is printed as the network parameters, for measurements taken across nodes (one rank per
 * node).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_cost.h"
#include "hdring_defaults.h"
#include "hdring_plan.h"

#define MAX_LIST 64

typedef struct options {
    bool colls[HDRING_NCOLLS];
    int p[MAX_LIST], np;
    int nodes, ppn;      /* SHAPE; nodes 0: one node */
    int cores;           /* per node; 0: a core per rank */
    int machine_cores;   /* of the one machine all nodes run on; 0: every node a machine of its own */
    bool round_robin;    /* --mapping node */
    double bytes[MAX_LIST];
    int nbytes;
    double latency_us, bandwidth_mbs, reduce_mbs, network_latency_us, network_bandwidth_mbs, network_exchange_mbs;
    double eager_bytes, network_eager_bytes;
    size_t small, large;
    bool crossovers, network;
} options_t;

static const char usage_text[] =
    "usage: hdring_model [--coll NAME|all] [--p LIST | SHAPE] [--bytes LIST] [MODEL]\n"
    "       hdring_model --crossovers [--coll NAME|all] [--p LIST | SHAPE] [--small-bytes B] [--large-bytes B] "
    "[MODEL]\n"
    "       hdring_model [--network] --fit FILE.csv\n"
    "       hdring_model [MODEL] --regret FILE.csv\n"
    "hdring's cost model without MPI: what each algorithm is predicted to take, and which one auto picks.\n"
    "  (default)      a table of predicted times per algorithm, p and size, the pick marked\n"
    "  --crossovers   the size ranges each algorithm is picked for, per p (what the trace's reasons say)\n"
    "  --fit F.csv    the model parameters whose picks lose least on measured timings (hdring_ab --compare's\n"
    "                 CSV; perf/tune.sh makes one); --network fits the network's\n"
    "  --regret F.csv what following the model (MODEL, else the defaults) loses against the measured fastest\n"
    "  --coll NAME    allreduce, reduce_scatter (also reduce_scatter_block), allgather, bcast, or all\n"
    "  --p LIST       communicator sizes, comma separated; or SHAPE:\n"
    "    --nodes N [--ppn L] [--mapping slot|node]   N nodes of L ranks, ranks placed by slot or by node\n"
    "    --cores C [--machine-cores C]                cores per node (and per machine, for emulated nodes)\n"
    "  --bytes LIST   vector sizes in bytes; --small-bytes, --large-bytes: thresholds as the parameters set them\n"
    "  MODEL: --latency-us, --bandwidth-mbs, --reduce-mbs, --network-latency-us, --network-bandwidth-mbs,\n"
    "         --network-exchange-mbs, --eager-bytes, --network-eager-bytes (the coll_hdring_model_*\n"
    "         parameters; defaults: the component's)\n"
    "Example: hdring_model --crossovers --coll allreduce --nodes 4 --ppn 2 --mapping node\n";

static void usage(const char *why)
{
    fprintf(stderr, "hdring_model: %s\n%s", why, usage_text);
    exit(2);
}

static double number(const char *s, const char *what)
{
    char *end;
    errno = 0;
    const double v = strtod(s, &end);
    if (0 != errno || end == s || '\0' != *end || v < 0) {
        fprintf(stderr, "hdring_model: %s: '%s' is not a non-negative number\n", what, s);
        exit(2);
    }
    return v;
}

static int list(const char *val, double *out, const char *what)
{
    char buf[1024];
    int n = 0;
    snprintf(buf, sizeof(buf), "%s", val);
    for (char *tok = strtok(buf, ","); NULL != tok; tok = strtok(NULL, ",")) {
        if (n == MAX_LIST) {
            usage("list too long");
        }
        out[n++] = number(tok, what);
    }
    return n;
}

static int coll_of(const char *name, hdring_coll_t *coll)
{
    if (0 == strcmp(name, "reduce_scatter_block")) {
        name = "reduce_scatter";
    }
    for (int k = 0; k < HDRING_NCOLLS; ++k) {
        if (0 == strcmp(name, hdring_coll_name((hdring_coll_t) k))) {
            *coll = (hdring_coll_t) k;
            return 0;
        }
    }
    return -1;
}

/* The model of a commutative call at p ranks: on one node, or of the shape given. */
static hdring_model_t model(const options_t *o, int p)
{
    const hdring_model_units_t units = {o->latency_us,         o->bandwidth_mbs,         o->reduce_mbs,
                                        o->network_latency_us, o->network_bandwidth_mbs, o->network_exchange_mbs,
                                        o->eager_bytes,        o->network_eager_bytes};
    hdring_shape_t shape = hdring_shape_single(p);
    shape.cores = o->cores;
    if (o->nodes > 0) {
        shape.nodes = o->nodes;
        shape.ppn = shape.ppn_max = o->ppn;
        shape.node_major = !o->round_robin || 1 == o->nodes || 1 == o->ppn;
        shape.index_major = o->round_robin || 1 == o->nodes || 1 == o->ppn;
        shape.machine_nodes = o->machine_cores > 0 ? o->nodes : 0;
        shape.machine_cores = o->machine_cores;
    }
    return hdring_model_of(p, false, &shape, &units);
}

/* The algorithm the plan picks (hdring_cost_pick), or -1 when none applies. */
static int winner(const hdring_alg_t *algs, int nalgs, const hdring_model_t *m, double n)
{
    double times[HDRING_NALGS];
    for (int a = 0; a < nalgs; ++a) {
        times[a] = hdring_cost_applies(algs[a], m) ? hdring_cost_time(algs[a], m, n, NULL) : -1;
    }
    return hdring_cost_pick(times, nalgs);
}

static void describe(const options_t *o, int p, char *out, size_t len)
{
    if (o->nodes > 0) {
        char machine[64] = "";
        if (o->machine_cores > 0) {
            snprintf(machine, sizeof(machine), ", on one machine of %d cores", o->machine_cores);
        }
        snprintf(out, len, "%d nodes x %d (p = %d, mapped by %s%s; network latency %g us, bandwidth %g MB/s)",
                 o->nodes, o->ppn, p, o->round_robin ? "node" : "slot", machine, o->network_latency_us,
                 o->network_bandwidth_mbs);
    } else {
        snprintf(out, len, "p = %d", p);
    }
}

static void table(hdring_coll_t coll, int p, const options_t *o)
{
    const hdring_model_t m = model(o, p);
    hdring_alg_t algs[HDRING_NALGS];
    const int nalgs = hdring_algorithms_of(coll, algs);
    char shape[160];

    describe(o, p, shape, sizeof(shape));
    printf("%s, %s (latency %g us, bandwidth %g MB/s, reduction %g MB/s), predicted time in us\n",
           hdring_coll_name(coll), shape, o->latency_us, o->bandwidth_mbs, o->reduce_mbs);
    printf("%12s", "bytes");
    for (int a = 0; a < nalgs; ++a) {
        printf(" %*s", (int) (strlen(hdring_alg_name(algs[a])) > 12 ? strlen(hdring_alg_name(algs[a])) : 12),
               hdring_alg_name(algs[a]));
    }
    printf("  %s\n", "winner");
    for (int i = 0; i < o->nbytes; ++i) {
        printf("%12.0f", o->bytes[i]);
        for (int a = 0; a < nalgs; ++a) {
            const int width = (int) (strlen(hdring_alg_name(algs[a])) > 12 ? strlen(hdring_alg_name(algs[a])) : 12);
            if (hdring_cost_applies(algs[a], &m)) {
                printf(" %*.2f", width, hdring_cost_time(algs[a], &m, o->bytes[i], NULL) * 1e6);
            } else {
                printf(" %*s", width, "-");
            }
        }
        const hdring_alg_t best = algs[winner(algs, nalgs, &m, o->bytes[i])];
        hdring_alg_t phase[HDRING_NPHASES];
        hdring_cost_time(best, &m, o->bytes[i], phase);
        const double segment = hdring_cost_segment(best, &m, o->bytes[i], phase);
        if (segment > 0) {
            printf("  %s in segments of %.0f B\n", hdring_alg_name(best), segment);
        } else {
            printf("  %s\n", hdring_alg_name(best));
        }
    }
    printf("\n");
}

/* The plan the component builds for a commutative operation at this p, one line per size range, with the
 * ranges and reasons in the words of its trace. */
static void crossovers(hdring_coll_t coll, int p, const options_t *o)
{
    const hdring_plan_input_t in = {coll, model(o, p), o->small, o->large};
    static const char *const why[] = {[HDRING_WHY_SMALL] = "small_bytes threshold",
                                      [HDRING_WHY_LARGE] = "large_bytes threshold",
                                      [HDRING_WHY_MODEL] = "cost model's fastest"};
    hdring_plan_t plan;
    size_t lo = 0;

    hdring_plan_build(&in, &plan);
    for (int s = 0; s < plan.nsegments; ++s) {
        const hdring_plan_segment_t *seg = &plan.seg[s];
        printf("%s p=%d: %s from %zu B ", hdring_coll_name(coll), p, hdring_alg_name(seg->alg), lo);
        if (SIZE_MAX == seg->upto) {
            printf("up");
        } else {
            printf("to %zu B", seg->upto);
        }
        printf(" (%s", why[seg->why]);
        for (int k = 0; k < HDRING_NPHASES; ++k) {
            static const char *const names[HDRING_NPHASES] = {"first within nodes", "across", "then within nodes"};
            if (HDRING_ALG_NONE != seg->phase[k]) {
                printf("; %s %s", names[k], hdring_alg_name(seg->phase[k]));
            }
        }
        printf(")\n");
        lo = seg->upto + 1;
    }
}

/* ---- --fit ---- */

#define MAX_POINTS 4096

typedef struct point { /* one (collective, p, size) with the measured time of each algorithm */
    char name[32];      /* the collective as measured: reduce_scatter and reduce_scatter_block apart */
    hdring_coll_t coll; /* ... and as the model prices it */
    int p;
    double bytes;
    int nalgs;
    hdring_alg_t alg[HDRING_NALGS];
    double us[HDRING_NALGS];
} point_t;

static int read_points(const char *file, point_t *pts)
{
    FILE *f = fopen(file, "r");
    char line[256], cname[32], aname[64];
    int n = 0, p;
    double bytes, us;
    if (NULL == f) {
        fprintf(stderr, "hdring_model: cannot read %s\n", file);
        exit(2);
    }
    while (fgets(line, sizeof(line), f)) {
        hdring_coll_t coll;
        for (char *c = line; *c; ++c) {
            *c = ',' == *c ? ' ' : *c;
        }
        if (5 != sscanf(line, "%31s %d %63s %lf %lf", cname, &p, aname, &bytes, &us) || 0 != coll_of(cname, &coll) ||
            bytes <= 0) {
            continue;
        }
        const hdring_alg_t alg = hdring_alg_by_name(coll, aname);
        if (HDRING_NALGS == alg) { /* e.g. "tuned": not a candidate */
            continue;
        }
        int i = 0;
        while (i < n && !(0 == strcmp(pts[i].name, cname) && pts[i].p == p && pts[i].bytes == bytes)) {
            ++i;
        }
        if (i == n) {
            if (n == MAX_POINTS) {
                fprintf(stderr, "hdring_model: %s has more than %d collective/p/size points\n", file, MAX_POINTS);
                exit(2);
            }
            pts[n] = (point_t){"", coll, p, bytes, 0, {0}, {0}};
            strcpy(pts[n++].name, cname);
        }
        for (int a = 0; a < pts[i].nalgs; ++a) {
            if (pts[i].alg[a] == alg) {
                fprintf(stderr, "hdring_model: %s measures %s of %g B at p=%d by %s twice\n", file, cname, bytes, p,
                        aname);
                exit(2);
            }
        }
        pts[i].alg[pts[i].nalgs] = alg; /* a collective's algorithms are distinct: at most HDRING_NALGS */
        pts[i].us[pts[i].nalgs++] = us;
    }
    fclose(f);
    return n;
}

/* The model's pick at one point, on a node of `cores` cores, and the fastest measured (indices into pt->alg). */
static void pick_and_fastest(const point_t *pt, const hdring_cost_params_t *c, int cores, int *pick, int *fastest)
{
    hdring_model_t m = hdring_model_single(pt->p, false, c);
    m.shape.cores = cores;
    *pick = winner(pt->alg, pt->nalgs, &m, pt->bytes);
    *fastest = 0;
    for (int a = 1; a < pt->nalgs; ++a) {
        *fastest = pt->us[a] < pt->us[*fastest] ? a : *fastest;
    }
}

/* log of (measured time of the model's pick / best measured time) at one point */
static double regret(const point_t *pt, const hdring_cost_params_t *c, int cores)
{
    int pick, fastest;
    pick_and_fastest(pt, c, cores, &pick, &fastest);
    return log(pt->us[pick] / pt->us[fastest]);
}

/* Sum of log regrets, and the worst, of following the model with parameters c. */
static double total_regret(const point_t *pts, int n, const hdring_cost_params_t *c, int cores, double *worst)
{
    double sum = 0;
    *worst = 0;
    for (int q = 0; q < n; ++q) {
        const double r = regret(&pts[q], c, cores);
        sum += r;
        *worst = r > *worst ? r : *worst;
    }
    return sum;
}

static void report(const char *what, int n, const char *file, double sum, double worst, double latency_us,
                   double bandwidth_mbs, double reduce_mbs, const char *prefix)
{
    printf("# %s on %d measured points of %s: following the model costs %.1f%% over the measured fastest on "
           "average (geometric), %.0f%% at worst\n",
           what, n, file, (exp(sum / n) - 1) * 100, (exp(worst) - 1) * 100);
    printf("coll_hdring_model_%slatency_us = %g\n", prefix, latency_us);
    printf("coll_hdring_model_%sbandwidth_mbs = %g\n", prefix, bandwidth_mbs);
    printf("coll_hdring_model_reduce_mbs = %g\n", reduce_mbs);
}

/* The points where following the model loses most, worst first: what to measure again or model better. */
#define LOSSES_SHOWN 10

typedef struct loss {
    double regret;
    int point;
} loss_t;

static int larger_loss_first(const void *a, const void *b)
{
    const loss_t *x = a, *y = b;
    return x->regret != y->regret ? (x->regret < y->regret) - (x->regret > y->regret) : x->point - y->point;
}

static void print_losses(const point_t *pts, int n, const hdring_cost_params_t *c, int cores)
{
    static loss_t losses[MAX_POINTS];
    for (int q = 0; q < n; ++q) {
        losses[q] = (loss_t){regret(&pts[q], c, cores), q};
    }
    qsort(losses, (size_t) n, sizeof(*losses), larger_loss_first);
    for (int k = 0; k < n && k < LOSSES_SHOWN && losses[k].regret > 0; ++k) {
        const point_t *pt = &pts[losses[k].point];
        int pick, fastest;
        pick_and_fastest(pt, c, cores, &pick, &fastest);
        printf("# loses %.0f%%: %s p=%d %.0f B: the model's %s %.2f us, %s %.2f us\n",
               (exp(losses[k].regret) - 1) * 100, pt->name, pt->p, pt->bytes, hdring_alg_name(pt->alg[pick]),
               pt->us[pick], hdring_alg_name(pt->alg[fastest]), pt->us[fastest]);
    }
}

/* The regret of the given parameters on measurements. */
static void evaluate(const char *file, const options_t *o)
{
    static point_t pts[MAX_POINTS];
    hdring_cost_params_t c = hdring_cost_params_of(o->latency_us, o->bandwidth_mbs, o->reduce_mbs);
    c.eager = o->eager_bytes;
    double worst = 0;
    const int n = read_points(file, pts);
    if (0 == n) {
        fprintf(stderr, "hdring_model: no usable measurements in %s\n", file);
        exit(2);
    }
    const double sum = total_regret(pts, n, &c, o->cores, &worst);
    report("evaluated", n, file, sum, worst, o->latency_us, o->bandwidth_mbs, o->reduce_mbs, "");
    print_losses(pts, n, &c, o->cores);
}

#define GRID 40

typedef struct axis {
    const char *name;
    double lo, hi, step; /* geometric grid lo, lo*step, ... <= hi */
    double v[GRID];
    int n;
} axis_t;

static void axis_init(axis_t *ax)
{
    ax->n = 0;
    for (double v = ax->lo; v <= ax->hi && ax->n < GRID; v *= ax->step) {
        ax->v[ax->n++] = v;
    }
}

/* A fitted value is trustworthy when it is not at the edge of its grid and the data distinguish it: some other
 * value on its axis loses more (a WARNING otherwise). A NOTE says when a wide range of values costs almost the
 * same: harmless, the choices hardly depend on that parameter. */
static void warn_axis(const axis_t *ax, int at, const double *sums, double best, int npoints)
{
    if (0 == at || ax->n - 1 == at) {
        printf("# WARNING: %s = %g is at the edge of the search range (%g to %g): the data do not pin it down; "
               "measure more sizes or more communicator sizes\n", ax->name, ax->v[at], ax->v[0], ax->v[ax->n - 1]);
        return;
    }
    bool distinguished = false;
    int lo = at, hi = at; /* the values around the fit that cost at most 0.5% more on average */
    for (int i = 0; i < ax->n; ++i) {
        distinguished |= sums[i] > best + 1e-9;
    }
    while (lo > 0 && sums[lo - 1] <= best + npoints * log(1.005)) {
        --lo;
    }
    while (hi < ax->n - 1 && sums[hi + 1] <= best + npoints * log(1.005)) {
        ++hi;
    }
    if (!distinguished) {
        printf("# WARNING: every value of %s fits these data equally well: the fitted %g means nothing; measure "
               "sizes around the crossovers\n", ax->name, ax->v[at]);
    } else if (ax->v[hi] / ax->v[lo] >= 4) {
        printf("# NOTE: %s is loosely determined: any value from %g to %g costs at most 0.5%% more on these "
               "data; the choices depend little on it here\n", ax->name, ax->v[lo], ax->v[hi]);
    }
}

static void fit(const char *file, const char *prefix, int cores, double eager)
{
    static point_t pts[MAX_POINTS];
    axis_t ax[3] = {{"latency_us", 0.05, 200, 1.25, {0}, 0},
                    {"bandwidth_mbs", 100, 200000, 1.3, {0}, 0},
                    {"reduce_mbs", 100, 400000, 1.4, {0}, 0}};
    for (int k = 0; k < 3; ++k) {
        axis_init(&ax[k]);
    }
    const int n = read_points(file, pts);
    double best = 1e300, worst_at_best = 0;
    int arg[3] = {0, 0, 0};

    if (0 == n) {
        fprintf(stderr, "hdring_model: no usable measurements in %s\n", file);
        exit(2);
    }
    for (int i = 0; i < ax[0].n; ++i) {
        for (int j = 0; j < ax[1].n; ++j) {
            for (int k = 0; k < ax[2].n; ++k) {
                hdring_cost_params_t c = hdring_cost_params_of(ax[0].v[i], ax[1].v[j], ax[2].v[k]);
                c.eager = eager;
                double worst = 0;
                const double sum = total_regret(pts, n, &c, cores, &worst);
                if (sum < best) {
                    best = sum;
                    worst_at_best = worst;
                    arg[0] = i, arg[1] = j, arg[2] = k;
                }
            }
        }
    }
    report("fitted", n, file, best, worst_at_best, ax[0].v[arg[0]], ax[1].v[arg[1]], ax[2].v[arg[2]], prefix);
    for (int k = 0; k < 3; ++k) { /* each axis through the optimum */
        double sums[GRID], worst;
        for (int i = 0; i < ax[k].n; ++i) {
            double v[3] = {ax[0].v[arg[0]], ax[1].v[arg[1]], ax[2].v[arg[2]]};
            v[k] = ax[k].v[i];
            hdring_cost_params_t c = hdring_cost_params_of(v[0], v[1], v[2]);
            c.eager = eager;
            sums[i] = total_regret(pts, n, &c, cores, &worst);
        }
        warn_axis(&ax[k], arg[k], sums, best, n);
    }
    if (n < 10) {
        printf("# WARNING: only %d measured points: too few to fit three parameters reliably\n", n);
    }
}

int main(int argc, char **argv)
{
    options_t o = {.latency_us = HDRING_DEFAULT_LATENCY_US,
                   .bandwidth_mbs = HDRING_DEFAULT_BANDWIDTH_MBS,
                   .reduce_mbs = HDRING_DEFAULT_REDUCE_MBS,
                   .network_latency_us = HDRING_DEFAULT_NETWORK_LATENCY_US,
                   .network_bandwidth_mbs = HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS,
                   .eager_bytes = HDRING_DEFAULT_EAGER_BYTES,
                   .network_eager_bytes = HDRING_DEFAULT_NETWORK_EAGER_BYTES,
                   .ppn = 1};
    double tmp[MAX_LIST];

    o.colls[HDRING_COLL_ALLREDUCE] = true;
    o.np = 3;
    o.p[0] = 6;
    o.p[1] = 24;
    o.p[2] = 1000;
    for (double b = 8; b <= 64.0 * 1024 * 1024; b *= 4) {
        o.bytes[o.nbytes++] = b;
    }
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (0 == strcmp(arg, "--help") || 0 == strcmp(arg, "-h")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (0 == strcmp(arg, "--crossovers")) {
            o.crossovers = true;
            continue;
        }
        if (0 == strcmp(arg, "--network")) {
            o.network = true;
            continue;
        }
        static const char *const with_value[] = {
            "--fit", "--regret", "--coll", "--p", "--bytes", "--latency-us", "--bandwidth-mbs", "--reduce-mbs",
            "--small-bytes", "--large-bytes", "--nodes", "--ppn", "--mapping", "--cores", "--machine-cores",
            "--network-latency-us",
            "--network-bandwidth-mbs", "--network-exchange-mbs", "--eager-bytes", "--network-eager-bytes"};
        bool known = false;
        for (size_t k = 0; k < sizeof(with_value) / sizeof(with_value[0]); ++k) {
            known |= 0 == strcmp(arg, with_value[k]);
        }
        if (!known || NULL == val) {
            char why[128];
            snprintf(why, sizeof(why), known ? "%s needs a value" : "unknown option %s", arg);
            usage(why);
        }
        ++i;
        if (0 == strcmp(arg, "--fit")) {
            fit(val, o.network ? "network_" : "", o.cores, o.network ? o.network_eager_bytes : o.eager_bytes);
            return 0;
        } else if (0 == strcmp(arg, "--regret")) {
            evaluate(val, &o);
            return 0;
        } else if (0 == strcmp(arg, "--coll")) {
            hdring_coll_t coll;
            for (int k = 0; k < HDRING_NCOLLS; ++k) {
                o.colls[k] = 0 == strcmp(val, "all");
            }
            if (0 != strcmp(val, "all")) {
                if (0 != coll_of(val, &coll)) {
                    usage("unknown collective");
                }
                o.colls[coll] = true;
            }
        } else if (0 == strcmp(arg, "--p")) {
            o.np = list(val, tmp, "--p");
            for (int k = 0; k < o.np; ++k) {
                o.p[k] = (int) tmp[k];
                if (o.p[k] < 1 || (double) o.p[k] != tmp[k] || o.p[k] > (1 << 30)) {
                    usage("p must be an integer from 1 to 2^30");
                }
            }
        } else if (0 == strcmp(arg, "--bytes")) {
            o.nbytes = list(val, o.bytes, "--bytes");
        } else if (0 == strcmp(arg, "--latency-us")) {
            o.latency_us = number(val, arg);
        } else if (0 == strcmp(arg, "--bandwidth-mbs")) {
            o.bandwidth_mbs = number(val, arg);
        } else if (0 == strcmp(arg, "--reduce-mbs")) {
            o.reduce_mbs = number(val, arg);
        } else if (0 == strcmp(arg, "--network-latency-us")) {
            o.network_latency_us = number(val, arg);
        } else if (0 == strcmp(arg, "--network-bandwidth-mbs")) {
            o.network_bandwidth_mbs = number(val, arg);
        } else if (0 == strcmp(arg, "--network-exchange-mbs")) {
            o.network_exchange_mbs = number(val, arg);
        } else if (0 == strcmp(arg, "--eager-bytes")) {
            o.eager_bytes = number(val, arg);
        } else if (0 == strcmp(arg, "--network-eager-bytes")) {
            o.network_eager_bytes = number(val, arg);
        } else if (0 == strcmp(arg, "--nodes") || 0 == strcmp(arg, "--ppn")) {
            const double v = number(val, arg);
            if (v < 1 || v > 65536 || v != (int) v) {
                usage("--nodes and --ppn take a whole number from 1 to 65536");
            }
            *(0 == strcmp(arg, "--nodes") ? &o.nodes : &o.ppn) = (int) v;
        } else if (0 == strcmp(arg, "--cores") || 0 == strcmp(arg, "--machine-cores")) {
            const double v = number(val, arg);
            if (v > 65536 || v != (int) v) {
                usage("--cores and --machine-cores take a whole number from 0 to 65536");
            }
            *(0 == strcmp(arg, "--cores") ? &o.cores : &o.machine_cores) = (int) v;
        } else if (0 == strcmp(arg, "--mapping")) {
            if (0 != strcmp(val, "slot") && 0 != strcmp(val, "node")) {
                usage("--mapping takes slot or node");
            }
            o.round_robin = 0 == strcmp(val, "node");
        } else if (0 == strcmp(arg, "--small-bytes")) {
            o.small = (size_t) number(val, arg);
        } else { /* --large-bytes */
            o.large = (size_t) number(val, arg);
        }
    }
    if (o.machine_cores > 0 && 0 == o.nodes) {
        usage("--machine-cores describes the machine several nodes share: it needs --nodes");
    }
    if (o.bandwidth_mbs <= 0 || o.reduce_mbs <= 0 || o.network_bandwidth_mbs <= 0) {
        usage("bandwidths must be more than 0");
    }
    if (o.nodes > 0) { /* one communicator: the shape's */
        o.np = 1;
        o.p[0] = o.nodes * o.ppn;
    }
    for (int k = 0; k < HDRING_NCOLLS; ++k) {
        for (int i = 0; i < o.np && o.colls[k]; ++i) {
            if (o.crossovers) {
                crossovers((hdring_coll_t) k, o.p[i], &o);
            } else {
                table((hdring_coll_t) k, o.p[i], &o);
            }
        }
    }
    return 0;
}
