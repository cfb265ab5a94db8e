/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring repeated calls: a call that repeats the collective's previous call goes straight to its schedule.
 *
 * The algorithm, its arguments, scratch sizes and transport of a call follow from its key (the arguments but the
 * buffers) and the communicator: a call with the previous call's key would decide, set up and record exactly
 * what that call did. When that call replayed its recorded schedule (hdring_schedule.h), its transport is kept
 * with the key, and the next call with the same key only points it at its own buffers and replays. The decision,
 * the arguments and the schedule's key comparison, hundreds of instructions per call that a small message's
 * time follows, are skipped, and the schedule is compiled for the transport (mca_coll_hdring_pml_compile): its
 * exchanges go to the PML with their addresses and ranks worked out once. At coll_hdring_verbose 1 and 2, whose
 * trace reports each call's decision, calls never take this path; at 3 they do, and say so. The key's datatypes
 * and op are retained while kept, so that a freed datatype's address cannot come back as another datatype with
 * the same key. When the module goes, a call kept with predefined datatypes and op (which no program frees) is
 * parked with its state, released; the next communicator to take the state re-arms it if it has the same
 * placement (coll_hdring_module.c, adopt_or_forget).
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "opal/util/output.h"

#include "coll_hdring.h"

static ptrdiff_t distance(const void *to, const void *from) { return (ptrdiff_t) ((uintptr_t) to - (uintptr_t) from); }

int mca_coll_hdring_repeat_run(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll, mca_coll_hdring_pml_t *t)
{
    const mca_coll_hdring_repeat_t *r = &m->state->repeat[coll];
    const hdring_schedule_t *s = &m->state->schedule[coll];
    const int status = r->compiled ? mca_coll_hdring_pml_replay(t, s, &r->program)
                                   : hdring_schedule_replay(&t->xport, s);
    const int rc = HDRING_OK == status && !t->poisoned ? t->same_bytes.fill_status
                                                        : mca_coll_hdring_pml_error(t, status);
    mca_coll_hdring_scratch_release(t);
    if (m->state->config.verbose >= 3 && 0 == ompi_comm_rank(t->comm)) {
        opal_output(mca_coll_hdring_component.output, "hdring: %s repeated the previous call (schedule: %zu steps)",
                    mca_coll_hdring_coll_name(coll), s->nsteps);
    }
    if (OMPI_SUCCESS != rc) { /* the next call takes the full path, and sets up afresh */
        mca_coll_hdring_repeat_disarm(m, coll);
    }
    return rc;
}

static void retain_key(const mca_coll_hdring_key_t *key)
{
    for (int i = 0; i < 2; ++i) {
        if (NULL != key->dtype[i]) {
            OBJ_RETAIN(key->dtype[i]);
        }
    }
    if (NULL != key->op) {
        OBJ_RETAIN(key->op);
    }
}

static void disarm(mca_coll_hdring_repeat_t *r)
{
    if (!r->armed) {
        return;
    }
    r->armed = false;
    for (int i = 0; i < 2; ++i) {
        if (NULL != r->key.dtype[i]) {
            OBJ_RELEASE(r->key.dtype[i]);
        }
    }
    if (NULL != r->key.op) {
        OBJ_RELEASE(r->key.op);
    }
}

void mca_coll_hdring_repeat_disarm(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll)
{
    disarm(&m->state->repeat[coll]);
}

static bool predefined(const struct ompi_datatype_t *dtype)
{
    return NULL == dtype || ompi_datatype_is_predefined(dtype);
}

bool mca_coll_hdring_repeat_park(mca_coll_hdring_state_t *s, mca_coll_hdring_coll_t coll)
{
    mca_coll_hdring_repeat_t *r = &s->repeat[coll];
    const bool armed = r->armed;
    disarm(r);
    return armed && predefined(r->key.dtype[0]) && predefined(r->key.dtype[1]) &&
           (NULL == r->key.op || ompi_op_is_intrinsic(r->key.op));
}

void mca_coll_hdring_repeat_adopt(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll,
                                  struct ompi_communicator_t *comm)
{
    mca_coll_hdring_repeat_t *r = &m->state->repeat[coll];
    retain_key(&r->key);
    r->t->comm = comm;
    r->armed = true;
}

void mca_coll_hdring_repeat_arm(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll,
                                const mca_coll_hdring_key_t *key, const mca_coll_hdring_pml_t *t, int rc)
{
    mca_coll_hdring_repeat_t *r = &m->state->repeat[coll];
    mca_coll_hdring_repeat_disarm(m, coll);
    if (NULL == key || HDRING_OK != rc || t->poisoned || NULL != t->own_scratch || 0 != t->inflight.used ||
        (0 != m->state->config.verbose && m->state->config.verbose < 3) ||
        HDRING_RAN_DIRECT == m->state->schedule[coll].how) {
        return;
    }
    if (!mca_coll_hdring_room((void **) &r->counts, &r->counts_cap, (size_t) key->ncounts, sizeof(*r->counts))) {
        return;
    }
    if (NULL == r->t && NULL == (r->t = malloc(sizeof(*r->t)))) {
        return;
    }
    r->key = *key;
    if (0 != key->ncounts) {
        memcpy(r->counts, key->counts, (size_t) key->ncounts * sizeof(*r->counts));
        r->key.counts = r->counts;
    }
    retain_key(key);
    *r->t = *t;
    r->t->xport.ctx = r->t;
    r->shift[0] = distance(t->base[HDRING_BUF_IN], key->in);
    r->shift[1] = distance(t->base[HDRING_BUF_OUT], key->out);
    r->scratch = NULL != t->base[HDRING_BUF_TMP] || NULL != t->base[HDRING_BUF_WORK];
    r->scratch_at[0] = distance(t->base[HDRING_BUF_TMP], m->state->scratch.mem);
    r->scratch_at[1] = distance(t->base[HDRING_BUF_WORK], m->state->scratch.mem);
    r->compiled = mca_coll_hdring_pml_compile(r->t, &m->state->schedule[coll], &r->program);
    r->armed = true;
}

void mca_coll_hdring_repeat_init(mca_coll_hdring_module_t *m, mca_coll_hdring_coll_t coll)
{
    mca_coll_hdring_repeat_t *r = &m->state->repeat[coll];
    r->program = (mca_coll_hdring_pml_program_t) {0};
    r->counts = NULL;
    r->counts_cap = 0;
    r->t = NULL;
}

void mca_coll_hdring_repeat_free(mca_coll_hdring_state_t *s, mca_coll_hdring_coll_t coll)
{
    mca_coll_hdring_repeat_t *r = &s->repeat[coll];
    disarm(r);
    mca_coll_hdring_pml_program_free(&r->program);
    free(r->counts);
    r->counts = NULL;
    r->counts_cap = 0;
    free(r->t);
    r->t = NULL;
}
