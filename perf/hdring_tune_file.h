/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * What hdring-tune does without MPI: the model's parameters from its measurements, whether two measurements of
 * the same thing agree, the MCA parameter file it writes, and its merge into an existing file. Unit-tested
 * (test/unit/test_tune.c) with synthetic timings and files.
 */
#ifndef HDRING_TUNE_FILE_H
#define HDRING_TUNE_FILE_H

#include <stdbool.h>

#include "hdring_plan.h"

/* One kind of link (between ranks of a node, or across nodes), as measured: medians in seconds. */
typedef struct hdring_tune_link {
    bool measured;
    double latency;  /* half the round trip of a 1-byte ping-pong */
    double one_way;  /* `bytes` sent one way, then a 1-byte answer (two latencies) */
    double exchange; /* `bytes` both ways at once (MPI_Sendrecv) */
    int flows;       /* pairs whose streams share one node's link at once (1 within a node) */
} hdring_tune_link_t;

typedef struct hdring_tune_timings {
    double bytes; /* of each stream and of the reduction */
    hdring_tune_link_t node, network;
    double reduce; /* MPI_Reduce_local of `bytes` of doubles with MPI_SUM */
} hdring_tune_timings_t;

/* The cost model's parameters, in the units of their MCA parameters (coll_hdring_model_*). */
typedef enum hdring_tune_param {
    HDRING_TUNE_LATENCY_US,
    HDRING_TUNE_BANDWIDTH_MBS,
    HDRING_TUNE_NETWORK_LATENCY_US,
    HDRING_TUNE_NETWORK_BANDWIDTH_MBS,
    HDRING_TUNE_NETWORK_EXCHANGE_MBS,
    HDRING_TUNE_REDUCE_MBS,
    HDRING_TUNE_NPARAMS
} hdring_tune_param_t;

typedef struct hdring_tune_params {
    bool set[HDRING_TUNE_NPARAMS]; /* measured (the others keep the component's defaults) */
    double value[HDRING_TUNE_NPARAMS];
} hdring_tune_params_t;

/* The MCA parameter's name: "coll_hdring_model_latency_us", ... */
const char *hdring_tune_param_name(hdring_tune_param_t p);

/* The parameters from the timings: a link's latency is its measured latency; its bandwidth the rate of the
 * stream after its latencies, times the flows sharing the link; within a node the exchange's rate (the pattern
 * of most local steps), across nodes the one-way rate and the exchange's. false when a timing is not positive or
 * leaves no time for the bytes (the latencies take it all): nothing is set then. */
bool hdring_tune_fit(const hdring_tune_timings_t *t, hdring_tune_params_t *out);

/* The largest relative difference between two fits of the same measurements (parameters set in both), and which
 * parameter shows it (NULL when none is set in both). */
double hdring_tune_disagreement(const hdring_tune_params_t *a, const hdring_tune_params_t *b,
                                hdring_tune_param_t *which);

/* One collective at one size, timed: each contender's median time per call, and the automatic choice's. */
#define HDRING_TUNE_MAX_CONTENDERS 16
typedef struct hdring_tune_point {
    double bytes;
    int n; /* contenders */
    double time[HDRING_TUNE_MAX_CONTENDERS];
    double chosen; /* the component's automatic choice, as it runs */
    double noise;  /* how far its control (the choice timed twice) was off, relative: a loss must exceed it too */
    bool noisy;    /* the control was off by more than the tolerance: the point justifies nothing */
} hdring_tune_point_t;

/* Thresholds that overrule the model where it chose more than `tolerance` (plus the point's noise) slower than
 * the fastest contender: small (bytes; 0 none) gives the sizes up to it to contender `latency`, large (0 none)
 * the sizes from it to contender `bandwidth` (-1: the collective has none). Within the run of points from the
 * smallest (small), or to the largest (large), where its contender is within the tolerance of the fastest, each
 * reaches as far as the model's last (first) wrong point and no further. A noisy point ends a run and counts for
 * nothing. `unresolved` counts the points still wrong with the thresholds applied (no threshold can give them to
 * the fastest). Points in increasing size. */
typedef struct hdring_tune_thresholds {
    double small, large;
    int unresolved;
} hdring_tune_thresholds_t;

hdring_tune_thresholds_t hdring_tune_thresholds(const hdring_tune_point_t *pts, int n, int latency, int bandwidth,
                                                double tolerance);

/* A threshold reaches only as far as the last point the model lost, so the sizes between it and the next point
 * checked keep the model's choice without evidence either way (a 16x gap: at 5 nodes the model's ring took 4x
 * tuned's time at 1 KiB with small at 720 B and the next point at 16 KiB). The check narrows such gaps: the size
 * to time next, the geometric middle of the gap from small to the next point, else of the gap from the point
 * before large to large, when wider than HDRING_TUNE_REFINE_RATIO; 0 when neither is. At most
 * HDRING_TUNE_MAX_REFINES more sizes per collective (a 16x gap closes in 3). Points in increasing size. */
#define HDRING_TUNE_REFINE_RATIO 1.5
#define HDRING_TUNE_MAX_REFINES 6
double hdring_tune_refine(const hdring_tune_point_t *pts, int n, hdring_tune_thresholds_t th);

/* The contender fastest at the point. */
int hdring_tune_fastest(const hdring_tune_point_t *pt);

/* Whether time t at the point is a loss beyond the tolerance and the point's own noise (never at a noisy point):
 * what the thresholds mend. */
bool hdring_tune_wrong(const hdring_tune_point_t *pt, double t, double tolerance);

/* The check's sizes, whole vectors in bytes as the trace's bytes= (allgather: the output; reduce_scatter_block: the
 * input): every GRID_STEP from SMALLEST to LARGEST, and half and twice each crossover the model predicts between
 * them (one noisy size must not leave a range of the model's unchecked). */
#define HDRING_TUNE_SMALLEST 64.0
#define HDRING_TUNE_LARGEST 4194304.0
#define HDRING_TUNE_GRID_STEP 16.0
#define HDRING_TUNE_MAX_SIZES (5 + 2 * (HDRING_MAX_SEGMENTS - 1)) /* the grid's 5, two per crossover */

/* The sizes to time a collective at, given the model's plan for it: the grid and, for each crossover of the plan
 * between SMALLEST and LARGEST, half and twice it; of sizes within 1.5x of each other only the smaller. Ascending;
 * returns how many (at most HDRING_TUNE_MAX_SIZES). */
int hdring_tune_sizes(const hdring_plan_t *plan, double *sizes);

/* Thresholds apply to every communicator size of a kind (a power of two or not): none from a check on fewer ranks,
 * where the algorithms barely differ and a 2-rank win (recursive doubling at 4 MiB) is a loss at 8. */
#define HDRING_TUNE_MIN_THRESHOLD_RANKS 4

/* Besides all P ranks, the check times the first Q, Q of the other kind: P - 1 when P is a power of two, else the
 * largest power of two below P; 0 when Q < HDRING_TUNE_MIN_THRESHOLD_RANKS. */
int hdring_tune_companion_size(int p);

/* Lines for the block (its comments, or its settings), as many as are added, each as long as its printf makes it
 * (the "checked: ..." comment runs past 400 characters). Start from {0}. */
typedef struct hdring_tune_lines {
    char **text;
    int n;
    bool failed; /* memory ran out: a line is missing */
} hdring_tune_lines_t;

void hdring_tune_add_line(hdring_tune_lines_t *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hdring_tune_lines_free(hdring_tune_lines_t *l);

/* The block hdring-tune writes: its marker lines, the comment lines given (each prefixed with "# "; may be
 * NULL), one "name = value" line per parameter set, and the settings given ("coll_hdring_<name> = value"
 * lines; others are refused). Only coll_hdring_ parameters. Allocated; NULL out of memory or for a setting of
 * another component. */
char *hdring_tune_block(const hdring_tune_params_t *p, const char *const *comments, int ncomments,
                        const char *const *settings, int nsettings);

/* An MCA parameter file with the block merged in: the existing text (NULL: none) without any earlier
 * hdring-tune block, every other line kept as it is except those setting a parameter the block sets, which are
 * commented out ("# replaced by hdring-tune: ..."); the block appended. Allocated; NULL out of memory. */
char *hdring_tune_merge(const char *existing, const char *block);

#endif
