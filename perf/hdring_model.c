/*
 * hdring_model: the alpha-beta-gamma cost model (hdring_cost.h) as tables.
 *
 *   hdring_model [--coll NAME] [--p LIST] [--bytes LIST] [--alpha S] [--beta S_PER_BYTE] [--gamma S_PER_BYTE]
 *   hdring_model --crossovers [--coll NAME] [--p LIST] ...
 *
 * For every p and message size (bytes: the whole vector, as coll_hdring_verbose reports it) it prints each
 * algorithm's predicted time in microseconds and the winner. --crossovers prints, per p, the sizes at which
 * the winner changes (a search over sizes from 8 bytes to 1 GiB): the starting point for the thresholds.
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
                    "[--bytes LIST] [--alpha S] [--beta S/B] [--gamma S/B] [--crossovers]\n",
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
