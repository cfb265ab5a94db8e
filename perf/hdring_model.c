/*
 * hdring_model: the alpha-beta-gamma cost model (hdring_cost.h) as tables.
 *
 *   hdring_model [--coll NAME] [--p LIST] [--bytes LIST] [--alpha S] [--beta S_PER_BYTE] [--gamma S_PER_BYTE]
 *   hdring_model --crossovers [--coll NAME] [--p LIST] ...
 *   hdring_model [--network] --fit FILE.csv
 *   hdring_model [--alpha S --beta S/B --gamma S/B] --regret FILE.csv
 *
 * For every p and message size (bytes: the whole vector, as coll_hdring_verbose reports it) it prints each
 * algorithm's predicted time in microseconds and the winner. --crossovers prints, per p, the sizes at which
 * the winner changes (a search over sizes from 8 bytes to 1 GiB): the starting point for the thresholds.
 * --fit reads measurements (hdring_ab --compare --csv: collective, p, algorithm, bytes, microseconds), and
 * searches a grid of alpha, beta and gamma for the values whose model choices lose least against the
 * measured fastest algorithm (the geometric mean of measured time of the model's choice over the best
 * measured time); it prints them as MCA parameters with that regret and the worst case. --regret reports that
 * loss for the parameters given before it. With --network the fit is printed as the network parameters
 * (coll_hdring_model_network_*), for measurements taken across nodes.
 * Defaults: alpha 2e-6 s, beta 1e-10 s/byte (10 GB/s), gamma 2.5e-10 s/byte (4 GB/s), p 6,24,1000,
 * sizes 8 B to 64 MiB by factors of 4, allreduce.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_cost.h"

#define MAX_LIST 64

typedef struct options {
    hdring_cost_coll_t colls[HDRING_COST_NCOLLS];
    int ncolls;
    int p[MAX_LIST], np;
    double bytes[MAX_LIST];
    int nbytes;
    hdring_cost_params_t c;
    int crossovers;
} options_t;

static void usage(const char *why)
{
    fprintf(stderr, "hdring_model: %s\n"
                    "usage: hdring_model [--coll allreduce|reduce_scatter|allgather|bcast|all] [--p LIST] "
                    "[--bytes LIST] [--alpha S] [--beta S/B] [--gamma S/B] [--crossovers] | [--network] --fit FILE.csv | "
                    "--regret FILE.csv\n",
            why);
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

static int list(char *s, double *out, const char *what)
{
    int n = 0;
    for (char *tok = strtok(s, ","); NULL != tok; tok = strtok(NULL, ",")) {
        if (n == MAX_LIST) {
            usage("list too long");
        }
        out[n++] = number(tok, what);
    }
    return n;
}

static double predict(hdring_cost_coll_t coll, hdring_alg_t alg, int p, double n, const hdring_cost_params_t *c)
{
    return hdring_cost_time(coll, alg, p, n, false, c);
}

/* The fastest algorithm; a tie (on powers of two binary blocks is rhd) goes to the one listed first. */
static int winner(hdring_cost_coll_t coll, int p, double n, const hdring_cost_params_t *c, hdring_alg_t *algs,
                  int nalgs)
{
    int best = 0;
    for (int a = 1; a < nalgs; ++a) {
        if (predict(coll, algs[a], p, n, c) < predict(coll, algs[best], p, n, c) * (1 - 1e-9)) {
            best = a;
        }
    }
    return best;
}

static void table(hdring_cost_coll_t coll, int p, const options_t *o)
{
    hdring_alg_t algs[4];
    const int nalgs = hdring_cost_algorithms(coll, algs);

    printf("%s, p = %d (alpha %g s, beta %g s/B, gamma %g s/B), predicted time in us\n", hdring_cost_coll_name(coll), p,
           o->c.alpha, o->c.beta, o->c.gamma);
    printf("%12s", "bytes");
    for (int a = 0; a < nalgs; ++a) {
        printf(" %18s", hdring_alg_name(algs[a]));
    }
    printf("  %s\n", "winner");
    for (int i = 0; i < o->nbytes; ++i) {
        printf("%12.0f", o->bytes[i]);
        for (int a = 0; a < nalgs; ++a) {
            printf(" %18.2f", predict(coll, algs[a], p, o->bytes[i], &o->c) * 1e6);
        }
        printf("  %s\n", hdring_alg_name(algs[winner(coll, p, o->bytes[i], &o->c, algs, nalgs)]));
    }
    printf("\n");
}

/* Sizes where the winner changes, found on a fine geometric grid and refined by bisection. */
static void crossovers(hdring_cost_coll_t coll, int p, const hdring_cost_params_t *c)
{
    hdring_alg_t algs[4];
    const int nalgs = hdring_cost_algorithms(coll, algs);
    double n = 8;
    int w = winner(coll, p, n, c, algs, nalgs);

    printf("%s p=%d: %s", hdring_cost_coll_name(coll), p, hdring_alg_name(algs[w]));
    while (n < 1073741824.0) {
        const double next = n * 1.05;
        const int wn = winner(coll, p, next, c, algs, nalgs);
        if (wn != w) {
            double lo = n, hi = next;
            while (hi - lo > 1) {
                const double mid = (lo + hi) / 2;
                if (winner(coll, p, mid, c, algs, nalgs) == w) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            printf(" | %.0f B: %s", hi, hdring_alg_name(algs[wn]));
            w = wn;
        }
        n = next;
    }
    printf("\n");
}

/* ---- --fit ---- */

#define MAX_POINTS 4096
#define MAX_ALGS 4

typedef struct point { /* one (collective, p, size) with the measured time of each algorithm */
    hdring_cost_coll_t coll;
    int p;
    double bytes;
    int nalgs;
    hdring_alg_t alg[MAX_ALGS];
    double us[MAX_ALGS];
} point_t;

static int coll_of(const char *name, hdring_cost_coll_t *coll)
{
    if (0 == strcmp(name, "reduce_scatter_block")) {
        name = "reduce_scatter";
    }
    for (int k = 0; k < HDRING_COST_NCOLLS; ++k) {
        if (0 == strcmp(name, hdring_cost_coll_name((hdring_cost_coll_t) k))) {
            *coll = (hdring_cost_coll_t) k;
            return 0;
        }
    }
    return -1;
}

static int alg_of(const char *name, hdring_alg_t *alg)
{
    for (int a = 0; a < HDRING_NALGS; ++a) {
        if (0 == strcmp(name, hdring_alg_name((hdring_alg_t) a))) {
            *alg = (hdring_alg_t) a;
            return 0;
        }
    }
    return -1; /* e.g. "tuned": not a candidate */
}

static int read_points(const char *file, point_t *pts)
{
    FILE *f = fopen(file, "r");
    char line[256], cname[64], aname[64];
    int n = 0, p;
    double bytes, us;
    if (NULL == f) {
        fprintf(stderr, "hdring_model: cannot read %s\n", file);
        exit(2);
    }
    while (fgets(line, sizeof(line), f)) {
        hdring_cost_coll_t coll;
        hdring_alg_t alg;
        for (char *c = line; *c; ++c) {
            *c = ',' == *c ? ' ' : *c;
        }
        if (5 != sscanf(line, "%63s %d %63s %lf %lf", cname, &p, aname, &bytes, &us) || 0 != coll_of(cname, &coll) ||
            0 != alg_of(aname, &alg) || bytes <= 0) {
            continue;
        }
        int i = 0;
        while (i < n && !(pts[i].coll == coll && pts[i].p == p && pts[i].bytes == bytes)) {
            ++i;
        }
        if (i == n) {
            if (n == MAX_POINTS) {
                break;
            }
            pts[n++] = (point_t){coll, p, bytes, 0, {0}, {0}};
        }
        if (pts[i].nalgs < MAX_ALGS) {
            pts[i].alg[pts[i].nalgs] = alg;
            pts[i].us[pts[i].nalgs++] = us;
        }
    }
    fclose(f);
    return n;
}

/* log of (measured time of the model's pick / best measured time) at one point */
static double regret(const point_t *pt, const hdring_cost_params_t *c)
{
    int pick = 0, best = 0;
    for (int a = 1; a < pt->nalgs; ++a) {
        if (hdring_cost_time(pt->coll, pt->alg[a], pt->p, pt->bytes, false, c) <
            hdring_cost_time(pt->coll, pt->alg[pick], pt->p, pt->bytes, false, c) * (1 - 1e-9)) {
            pick = a;
        }
        best = pt->us[a] < pt->us[best] ? a : best;
    }
    return log(pt->us[pick] / pt->us[best]);
}

/* Sum of log regrets, and the worst, of following the model with parameters c. */
static double total_regret(const point_t *pts, int n, const hdring_cost_params_t *c, double *worst)
{
    double sum = 0;
    *worst = 0;
    for (int q = 0; q < n; ++q) {
        const double r = regret(&pts[q], c);
        sum += r;
        *worst = r > *worst ? r : *worst;
    }
    return sum;
}

static const char *link_prefix = ""; /* "network_" with --network: the fit is of multi-node measurements */

static void report(const char *what, int n, const char *file, double sum, double worst, const hdring_cost_params_t *c)
{
    printf("# %s on %d measured points of %s: following the model costs %.1f%% over the measured fastest on "
           "average (geometric), %.0f%% at worst\n",
           what, n, file, (exp(sum / n) - 1) * 100, (exp(worst) - 1) * 100);
    printf("coll_hdring_model_%slatency_us = %g\n", link_prefix, c->alpha * 1e6);
    printf("coll_hdring_model_%sbandwidth_mbs = %g\n", link_prefix, 1e-6 / c->beta);
    printf("coll_hdring_model_reduce_mbs = %g\n", 1e-6 / c->gamma);
}

/* The regret of the given parameters on measurements. */
static void evaluate(const char *file, const hdring_cost_params_t *c)
{
    static point_t pts[MAX_POINTS];
    double worst = 0;
    const int n = read_points(file, pts);
    const double sum = total_regret(pts, n, c, &worst);
    report("evaluated", n, file, sum, worst, c);
}

static void fit(const char *file)
{
    static point_t pts[MAX_POINTS];
    double alphas[40], bandwidths[40], reduces[40];
    int na = 0, nb = 0, nc = 0;
    for (double v = 0.05; v <= 200; v *= 1.25) { /* microseconds */
        alphas[na++] = v;
    }
    for (double v = 100; v <= 200000; v *= 1.3) { /* MB/s */
        bandwidths[nb++] = v;
    }
    for (double v = 100; v <= 400000; v *= 1.4) {
        reduces[nc++] = v;
    }
    const int n = read_points(file, pts);
    double best = 1e300, worst_at_best = 0;
    hdring_cost_params_t arg = {0, 0, 0};

    if (0 == n) {
        fprintf(stderr, "hdring_model: no usable measurements in %s\n", file);
        exit(2);
    }
    for (int i = 0; i < na; ++i) {
        for (int j = 0; j < nb; ++j) {
            for (int k = 0; k < nc; ++k) {
                const hdring_cost_params_t c = {alphas[i] * 1e-6, 1 / (bandwidths[j] * 1e6), 1 / (reduces[k] * 1e6)};
                double worst = 0;
                const double sum = total_regret(pts, n, &c, &worst);
                if (sum < best) {
                    best = sum;
                    worst_at_best = worst;
                    arg = c;
                }
            }
        }
    }
    report("fitted", n, file, best, worst_at_best, &arg);
}

int main(int argc, char **argv)
{
    options_t o = {.ncolls = 1, .colls = {HDRING_COST_ALLREDUCE}, .c = {2e-6, 1e-10, 2.5e-10}};
    double tmp[MAX_LIST];

    o.np = 3;
    o.p[0] = 6;
    o.p[1] = 24;
    o.p[2] = 1000;
    o.nbytes = 0;
    for (double b = 8; b <= 64.0 * 1024 * 1024; b *= 4) {
        o.bytes[o.nbytes++] = b;
    }
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (0 == strcmp(arg, "--crossovers")) {
            o.crossovers = 1;
            continue;
        }
        if (0 == strcmp(arg, "--network")) {
            link_prefix = "network_";
            continue;
        }
        if (0 == strcmp(arg, "--fit") && NULL != val) {
            fit(val);
            return 0;
        }
        if (0 == strcmp(arg, "--regret") && NULL != val) {
            evaluate(val, &o.c); /* with the --alpha/--beta/--gamma given before it */
            return 0;
        }
        if (NULL == val) {
            usage("missing value");
        }
        ++i;
        if (0 == strcmp(arg, "--coll")) {
            o.ncolls = 0;
            for (int k = 0; k < HDRING_COST_NCOLLS; ++k) {
                if (0 == strcmp(val, "all") || 0 == strcmp(val, hdring_cost_coll_name((hdring_cost_coll_t) k))) {
                    o.colls[o.ncolls++] = (hdring_cost_coll_t) k;
                }
            }
            if (0 == o.ncolls) {
                usage("unknown collective");
            }
        } else if (0 == strcmp(arg, "--p")) {
            char buf[1024];
            snprintf(buf, sizeof(buf), "%s", val);
            o.np = list(buf, tmp, "--p");
            for (int k = 0; k < o.np; ++k) {
                o.p[k] = (int) tmp[k];
                if (o.p[k] < 1 || (double) o.p[k] != tmp[k] || o.p[k] > (1 << 30)) {
                    usage("p must be an integer from 1 to 2^30");
                }
            }
        } else if (0 == strcmp(arg, "--bytes")) {
            char buf[1024];
            snprintf(buf, sizeof(buf), "%s", val);
            o.nbytes = list(buf, o.bytes, "--bytes");
        } else if (0 == strcmp(arg, "--alpha")) {
            o.c.alpha = number(val, "--alpha");
        } else if (0 == strcmp(arg, "--beta")) {
            o.c.beta = number(val, "--beta");
        } else if (0 == strcmp(arg, "--gamma")) {
            o.c.gamma = number(val, "--gamma");
        } else {
            usage("unknown option");
        }
    }
    for (int k = 0; k < o.ncolls; ++k) {
        for (int i = 0; i < o.np; ++i) {
            if (o.crossovers) {
                crossovers(o.colls[k], o.p[i], &o.c);
            } else {
                table(o.colls[k], o.p[i], &o);
            }
        }
    }
    return 0;
}
