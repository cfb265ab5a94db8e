/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_smpi: hdring's MPI-free core, the same source as the component's, timed in SimGrid's SMPI simulator,
 * next to SMPI's own collectives. Run it under smpirun (perf/sim/smpi-run.sh sets up the platform, hostfile and
 * options the study uses):
 *
 *   hdring_smpi --coll LIST --bytes LIST [--alg LIST] [--calls K] [--check]
 *
 *   --coll    allreduce, reduce_scatter, reduce_scatter_block, allgather, bcast, or all (comma separated)
 *   --bytes   whole-vector sizes in bytes (smpi_case.h: how a size maps to counts)
 *   --alg     auto (hdring's automatic choice, as the component makes it), an hdring algorithm name, all (every
 *             algorithm of the collective that can serve, then auto), or mpi (SMPI's MPI_Allreduce etc., with the
 *             algorithm SMPI's --cfg options select); default auto
 *   --calls   calls timed back to back from a synchronized start (default 1: a call from the start to the last
 *             rank's return)
 *   --check   private buffers and real data: every result verified (small p; the study itself runs on
 *             SMPI_SHARED_MALLOC buffers whose contents mean nothing)
 *
 * Rank 0 prints the model's parameters as measured on the platform (smpi_world.h), then one line per timing:
 *   result,COLL,BYTES,ACTUAL,IMPL,ALG,RAN,PHASES,SEGMENT,US,MODEL_US,CHECK
 * IMPL hdring or mpi; ALG as asked; RAN the algorithm that ran (hdring) and PHASES a hierarchical one's phases
 * (first within nodes+across+then within), SEGMENT its pipeline segment in bytes; US the slowest rank's time per
 * call in microseconds; MODEL_US the cost model's prediction for RAN; CHECK ok, FAIL or - (no --check).
 * Exit status 0 when every run completed (and, with --check, was right).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdring_algorithms.h"
#include "smpi_case.h"

#define MAX_LIST 32

typedef struct options {
    smpi_coll_t coll[MAX_LIST];
    int ncolls;
    size_t bytes[MAX_LIST];
    int nbytes;
    char alg[MAX_LIST][64];
    int nalgs;
    int calls;
    bool check;
} options_t;

static int usage(int rank)
{
    if (0 == rank) {
        fprintf(stderr, "usage: hdring_smpi --coll LIST --bytes LIST [--alg auto|NAME|all|mpi,...] [--calls K] "
                        "[--check]\n");
    }
    return 2;
}

/* Splits a comma-separated list in place; returns the number of items, -1 if more than MAX_LIST. */
static int split(char *list, char **items)
{
    int n = 0;
    for (char *tok = strtok(list, ","); NULL != tok; tok = strtok(NULL, ",")) {
        if (n == MAX_LIST) {
            return -1;
        }
        items[n++] = tok;
    }
    return n;
}

static bool parse(int argc, char **argv, options_t *o)
{
    char *items[MAX_LIST];
    memset(o, 0, sizeof(*o));
    o->calls = 1;
    for (int i = 1; i < argc; ++i) {
        const bool more = i + 1 < argc;
        int n = 0;
        if (0 == strcmp(argv[i], "--check")) {
            o->check = true;
        } else if (0 == strcmp(argv[i], "--calls") && more) {
            o->calls = atoi(argv[++i]);
        } else if (0 == strcmp(argv[i], "--coll") && more && (n = split(argv[++i], items)) > 0) {
            for (int k = 0; k < n; ++k) {
                const bool all = 0 == strcmp(items[k], "all");
                for (int c = 0; c < SMPI_NCOLLS && o->ncolls < MAX_LIST; ++c) {
                    if (all || c == (int) smpi_coll_by_name(items[k])) {
                        o->coll[o->ncolls++] = (smpi_coll_t) c;
                    }
                }
                if (!all && SMPI_NCOLLS == smpi_coll_by_name(items[k])) {
                    return false;
                }
            }
        } else if (0 == strcmp(argv[i], "--bytes") && more && (n = split(argv[++i], items)) > 0) {
            for (o->nbytes = 0; o->nbytes < n; ++o->nbytes) {
                o->bytes[o->nbytes] = strtoull(items[o->nbytes], NULL, 10);
            }
        } else if (0 == strcmp(argv[i], "--alg") && more && (n = split(argv[++i], items)) > 0) {
            for (o->nalgs = 0; o->nalgs < n; ++o->nalgs) {
                snprintf(o->alg[o->nalgs], sizeof(o->alg[0]), "%s", items[o->nalgs]);
            }
        } else {
            return false;
        }
    }
    if (0 == o->nalgs) {
        snprintf(o->alg[0], sizeof(o->alg[0]), "auto");
        o->nalgs = 1;
    }
    return o->ncolls > 0 && o->nbytes > 0 && o->calls > 0;
}

static void describe_model(const smpi_world_t *w)
{
    const hdring_model_units_t *u = &w->units;
    const hdring_shape_t *s = &w->topo.shape;
    printf("# p=%d nodes=%d ppn=%d latency_us=%.4f bandwidth_mbs=%.1f reduce_mbs=%.1f network_latency_us=%.4f "
           "network_bandwidth_mbs=%.1f eager_bytes=%.0f network_eager_bytes=%.0f\n",
           w->p, s->nodes, s->ppn, u->latency_us, u->bandwidth_mbs, u->reduce_mbs, u->network_latency_us,
           u->network_bandwidth_mbs, u->eager_bytes, u->network_eager_bytes);
}

/* "rhd+ring+rhd" for a hierarchical choice (its phases, first within nodes+across+then within), "-" otherwise. */
static void phases_of(const hdring_choice_t *c, char *out, size_t len)
{
    int used = snprintf(out, len, "-");
    for (int k = 0; k < HDRING_NPHASES && HDRING_ALG_NONE != hdring_algorithm(c->alg)->inner; ++k) {
        if (HDRING_ALG_NONE != c->phase[k] && used >= 0 && (size_t) used < len) {
            used = k > 0 ? used + snprintf(out + used, len - (size_t) used, "+%s", hdring_alg_name(c->phase[k]))
                         : snprintf(out, len, "%s", hdring_alg_name(c->phase[k]));
        }
    }
}

/* Times one run: hdring with `forced` (HDRING_ALG_NONE: auto), or SMPI's collective (mpi). False on a failure. */
static bool run_one(smpi_case_t *c, const options_t *o, const char *asked, bool mpi, hdring_alg_t forced)
{
    hdring_choice_t choice;
    bool ok = true;
    if (!mpi && !smpi_case_choose(c, forced, &choice)) {
        return true; /* not applicable here: nothing to time */
    }
    const double t = smpi_case_time(c, mpi ? NULL : &choice, o->calls, &ok);
    if (0 != c->w->rank) {
        return true;
    }
    if (t < 0) {
        printf("result,%s,%zu,%zu,%s,%s,-,-,-,error,-,-\n", smpi_coll_name(c->coll), c->bytes, c->actual,
               mpi ? "mpi" : "hdring", asked);
        return false;
    }
    const char *verdict = !o->check ? "-" : ok ? "ok" : "FAIL";
    if (mpi) {
        printf("result,%s,%zu,%zu,mpi,%s,-,-,-,%.3f,-,%s\n", smpi_coll_name(c->coll), c->bytes, c->actual, asked,
               t * 1e6, verdict);
    } else {
        char phases[128];
        const hdring_model_t model = smpi_case_model(c);
        phases_of(&choice, phases, sizeof(phases));
        printf("result,%s,%zu,%zu,hdring,%s,%s,%s,%zu,%.3f,%.3f,%s\n", smpi_coll_name(c->coll), c->bytes, c->actual,
               asked, hdring_alg_name(choice.alg), phases, choice.segment, t * 1e6,
               hdring_cost_time(choice.alg, &model, (double) c->actual, NULL) * 1e6, verdict);
    }
    fflush(stdout);
    return !o->check || ok;
}

/* Every algorithm asked for, on one case. */
static bool run_case(smpi_case_t *c, const options_t *o)
{
    bool good = true;
    for (int a = 0; a < o->nalgs; ++a) {
        const char *asked = o->alg[a];
        if (0 == strcmp(asked, "mpi")) {
            good &= run_one(c, o, asked, true, HDRING_ALG_NONE);
        } else if (0 == strcmp(asked, "auto")) {
            good &= run_one(c, o, asked, false, HDRING_ALG_NONE);
        } else if (0 == strcmp(asked, "all")) {
            hdring_alg_t algs[HDRING_NALGS];
            const int n = hdring_algorithms_of(smpi_core_coll(c->coll), algs);
            for (int i = 0; i < n; ++i) {
                good &= run_one(c, o, hdring_alg_name(algs[i]), false, algs[i]);
            }
            good &= run_one(c, o, "auto", false, HDRING_ALG_NONE);
        } else {
            const hdring_alg_t alg = hdring_alg_by_name(smpi_core_coll(c->coll), asked);
            if (HDRING_NALGS == alg) {
                if (0 == c->w->rank) {
                    fprintf(stderr, "hdring_smpi: %s has no algorithm %s\n", smpi_coll_name(c->coll), asked);
                }
                return false;
            }
            good &= run_one(c, o, asked, false, alg);
        }
    }
    return good;
}

int main(int argc, char **argv)
{
    options_t o;
    smpi_world_t w;
    int rank, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!parse(argc, argv, &o)) {
        MPI_Finalize();
        return usage(rank);
    }
    if (0 != smpi_world_init(&w, MPI_COMM_WORLD)) {
        MPI_Finalize();
        return 1;
    }
    if (0 == rank) {
        describe_model(&w);
    }
    for (int i = 0; i < o.ncolls; ++i) {
        for (int j = 0; j < o.nbytes; ++j) {
            smpi_case_t c;
            if (!smpi_case_init(&c, &w, o.coll[i], o.bytes[j], o.check)) {
                fprintf(stderr, "hdring_smpi: rank %d has no memory for %s of %zu bytes\n", rank,
                        smpi_coll_name(o.coll[i]), o.bytes[j]);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            rc |= run_case(&c, &o) ? 0 : 1;
            smpi_case_free(&c);
        }
    }
    smpi_world_free(&w);
    MPI_Finalize();
    return rc;
}
