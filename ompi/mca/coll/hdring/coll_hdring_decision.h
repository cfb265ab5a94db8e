/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring decision: which algorithm serves a call, and why. The only place that chooses.
 */
#ifndef MCA_COLL_HDRING_DECISION_H
#define MCA_COLL_HDRING_DECISION_H

#include "coll_hdring_setup.h"

BEGIN_C_DECLS

typedef enum mca_coll_hdring_why {
    MCA_COLL_HDRING_WHY_FORCED,    /* coll_hdring_<coll>_algorithm */
    MCA_COLL_HDRING_WHY_UNORDERED, /* fallback: the forced algorithm cannot keep a non-commutative op's order */
    MCA_COLL_HDRING_WHY_UNEVEN,    /* forced hierarchical on nodes of unequal size: its flat algorithm instead */
    MCA_COLL_HDRING_WHY_PLAN,      /* auto: the plan's segment (its own reason: threshold or model) */
    MCA_COLL_HDRING_WHY_PICKED,    /* measured selection or a decisions file picked it (coll_hdring_select.h) */
} mca_coll_hdring_why_t;

typedef struct mca_coll_hdring_choice {
    bool fallback;    /* delegate to the saved lower-priority module */
    hdring_choice_t c; /* otherwise run this: the algorithm, its phases, its segment (hdring_plan.h) */
    hdring_alg_t forced; /* with MCA_COLL_HDRING_WHY_UNEVEN: the forced algorithm */
    mca_coll_hdring_why_t why;
    hdring_why_t plan_why; /* with MCA_COLL_HDRING_WHY_PLAN */
    size_t lo, hi;         /* the size range (or threshold) behind the choice, for the trace */
} mca_coll_hdring_choice_t;

/* The choice for a call of collective coll on setup s, `bytes` the whole vector (HOW-IT-WORKS.md: the trace),
 * ordered when the operation is not commutative, `pick` HDRING_PICK_MODEL (the parameters and the model decide), an
 * algorithm or HDRING_PICK_FALLBACK (hdring_select.h: what measured selection or a decisions file picked). The
 * same on every rank. */
void mca_coll_hdring_decide(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered,
                            int pick, mca_coll_hdring_choice_t *choice);
/* The candidates measured selection tries for a call of `bytes` (hdring_select_candidates; the fallback last when
 * `fallback`), into picks (HDRING_SELECT_MAX): 0 when the model does not decide it (a forced algorithm, a
 * threshold). [*lo, *hi]: the sizes around it the model gives the same algorithm, *model that algorithm. */
int mca_coll_hdring_candidates(mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes, bool ordered,
                               bool fallback, int *picks, size_t *lo, size_t *hi, int *model);
/* Whether algorithm `pick` (or the fallback) can serve calls of collective coll on s (its order, its nodes). */
bool mca_coll_hdring_pick_applies(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, bool ordered,
                                  int pick);
/* "alg=ring (forced by coll_hdring_allreduce_algorithm)": the choice as the trace tells it. */
void mca_coll_hdring_describe(const mca_coll_hdring_setup_t *s, mca_coll_hdring_coll_t coll, size_t bytes,
                              bool ordered, const mca_coll_hdring_choice_t *choice, char *out, size_t len);

END_C_DECLS

#endif
