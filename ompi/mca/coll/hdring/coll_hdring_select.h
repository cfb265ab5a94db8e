/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring selection: what serves each call beyond the model (coll_hdring_select, coll_hdring_decisions_file).
 *
 * A communicator's calls are sorted into size ranges per collective (and operand order): at most a factor of 2
 * wide, never across one of the model's crossovers. A range's first call runs the model's choice; its next blocking
 * calls try the candidates (hdring_select.h: the model's best, the fallback), timed on every rank, two exchanges
 * of the times over the PML (hdring's own allgather, never an MPI call), and then every rank keeps the same winner
 * for the range. Only calls whose result no algorithm changes are measured unless coll_hdring_select is measured;
 * a decisions file's line decides any call it matches, first. Nonblocking and persistent calls take the range's
 * winner (hdring's fastest own algorithm where the fallback won: its nonblocking form is another component's), or
 * the model's choice while it is undecided. At coll_hdring_verbose 1 rank 0 says what it measured and why it kept
 * what it kept. The state is the module's: a communicator's calls are never concurrent (MPI), and every rank of it
 * sees the same calls in the same order, so every rank's state is the same.
 */
#ifndef MCA_COLL_HDRING_SELECT_H
#define MCA_COLL_HDRING_SELECT_H

#include "coll_hdring.h"

#include "hdring_select.h"

BEGIN_C_DECLS

typedef struct mca_coll_hdring_range mca_coll_hdring_range_t; /* a size range's state */

/* A module's selection state (made with the module, so that a rank short of memory has no module rather than one
 * deciding otherwise); mca_coll_hdring_select_enable switches it on. */
struct mca_coll_hdring_select *mca_coll_hdring_select_new(void);
void mca_coll_hdring_select_free(struct mca_coll_hdring_select *sel);
/* On for module m, whose setup is made, unless nothing would ever pick (coll_hdring_select model and no decisions
 * file) or `tolerant` (an allreduce that must survive a lost rank measures nothing). */
void mca_coll_hdring_select_enable(mca_coll_hdring_module_t *m, bool tolerant);

/* What serves call a of `kind` on m, a pick (hdring_select.h); *settled: final for calls like it (the quick path
 * may take it). *trying: a range under trial, for a blocking call that must run its candidate and be timed
 * (mca_coll_hdring_select_trial_pick, mca_coll_hdring_select_record); NULL otherwise. */
int mca_coll_hdring_select_pick(mca_coll_hdring_module_t *m, const mca_coll_hdring_args_t *a,
                                mca_coll_hdring_kind_t kind, bool *settled, mca_coll_hdring_range_t **trying);
/* The candidate the next call of range r runs; *timed: whether its time counts (no trace may slow it). */
int mca_coll_hdring_select_trial_pick(const mca_coll_hdring_range_t *r, bool *timed);
/* The call of r's candidate just run took `seconds` on this rank: the trial goes on, and at its exchanges every
 * rank of comm takes part (all at the same call). */
void mca_coll_hdring_select_record(mca_coll_hdring_module_t *m, struct ompi_communicator_t *comm,
                                   mca_coll_hdring_range_t *r, double seconds);

/* For the trace: "alg=ring (measuring ...)" for a call served by `pick` (trying: the range under trial), or NULL
 * when the task's own text says it (the model's choice, no range decided). */
const char *mca_coll_hdring_select_describe(mca_coll_hdring_module_t *m, const mca_coll_hdring_args_t *a,
                                            mca_coll_hdring_kind_t kind, int pick,
                                            const mca_coll_hdring_range_t *trying, char *out, size_t len);

END_C_DECLS

#endif
