/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* One collective call in the simulator: see smpi_case.h. */
#include "smpi_case.h"

#include <stdlib.h>
#include <string.h>

#include "hdring_algorithms.h"
#include "smpi_check.h"
#include "smpi_xport.h"

static const char *const names[SMPI_NCOLLS] = {"allreduce", "reduce_scatter", "reduce_scatter_block", "allgather",
                                               "bcast"};

smpi_coll_t smpi_coll_by_name(const char *name)
{
    int c = 0;
    while (c < SMPI_NCOLLS && 0 != strcmp(names[c], name)) {
        ++c;
    }
    return (smpi_coll_t) c;
}

const char *smpi_coll_name(smpi_coll_t coll) { return names[coll]; }

hdring_coll_t smpi_core_coll(smpi_coll_t coll)
{
    static const hdring_coll_t core[SMPI_NCOLLS] = {HDRING_COLL_ALLREDUCE, HDRING_COLL_REDUCE_SCATTER,
                                                    HDRING_COLL_REDUCE_SCATTER, HDRING_COLL_ALLGATHER,
                                                    HDRING_COLL_BCAST};
    return core[coll];
}

/* ---- memory: private for a check, shared (contents meaningless, never copied by SMPI) otherwise ---- */

static char *buffer(size_t bytes, bool check)
{
    bytes = bytes > 0 ? bytes : sizeof(double); /* MPI rejects a NULL buffer even where a rank's count is 0 */
    return check ? calloc(1, bytes) : SMPI_SHARED_MALLOC(bytes);
}

static void release(char *buf, bool check)
{
    if (NULL == buf) {
        return;
    }
    if (check) {
        free(buf);
    } else {
        SMPI_SHARED_FREE(buf);
    }
}

/* SMPI's reductions call this for every piece they reduce: charged as hdring's transport charges its own, and
 * done only when the data mean something. The per-rank case comes through SMPI's per-process user data. */
static void charged_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const smpi_case_t *c = smpi_process_get_user_data();
    (void) type;
    if (c->check) {
        const float *a = in;
        float *b = inout;
        for (int i = 0; i < *len; ++i) {
            b[i] = a[i] + b[i];
        }
    }
    smpi_charge_reduction((double) *len * sizeof(float), c->w->reduce_rate);
}

bool smpi_case_init(smpi_case_t *c, const smpi_world_t *w, smpi_coll_t coll, size_t bytes, bool check)
{
    const size_t p = (size_t) w->p;
    memset(c, 0, sizeof(*c));
    c->w = w;
    c->coll = coll;
    c->bytes = bytes;
    c->check = check;
    c->elem = SMPI_ALLGATHER == coll || SMPI_BCAST == coll ? 1 : sizeof(float);
    size_t in_bytes = 0, out_bytes = 0;
    switch (coll) {
    case SMPI_REDUCE_SCATTER_BLOCK:
    case SMPI_ALLGATHER:
        c->count = bytes / (p * c->elem) > 0 ? bytes / (p * c->elem) : 1;
        c->actual = p * c->count * c->elem;
        in_bytes = SMPI_ALLGATHER == coll ? c->count : c->actual;
        out_bytes = SMPI_ALLGATHER == coll ? c->actual : c->count * c->elem;
        break;
    case SMPI_REDUCE_SCATTER: {
        const size_t total = bytes / c->elem > 0 ? bytes / c->elem : 1;
        c->displ = malloc((p + 1) * sizeof(*c->displ));
        c->rcounts = malloc(p * sizeof(*c->rcounts));
        if (NULL == c->displ || NULL == c->rcounts) {
            return false;
        }
        c->displ[0] = 0;
        for (size_t b = 0; b < p; ++b) {
            c->rcounts[b] = (int) (total / p + (b < total % p));
            c->displ[b + 1] = c->displ[b] + (size_t) c->rcounts[b];
        }
        c->actual = total * c->elem;
        in_bytes = c->actual;
        out_bytes = (size_t) c->rcounts[w->rank] * c->elem;
        break;
    }
    default:
        c->count = bytes / c->elem > 0 ? bytes / c->elem : 1;
        c->actual = c->count * c->elem;
        in_bytes = SMPI_BCAST == coll ? 0 : c->actual;
        out_bytes = c->actual;
        break;
    }
    c->in = buffer(in_bytes, check);
    c->out = buffer(out_bytes, check);
    MPI_Op_create(charged_sum, 1, &c->op);
    smpi_process_set_user_data(c);
    return NULL != c->in && NULL != c->out;
}

void smpi_case_free(smpi_case_t *c)
{
    release(c->in, c->check);
    release(c->out, c->check);
    free(c->displ);
    free(c->rcounts);
    MPI_Op_free(&c->op);
}

hdring_model_t smpi_case_model(const smpi_case_t *c)
{
    return hdring_model_of(c->w->p, false, &c->w->topo.shape, &c->w->units);
}

bool smpi_case_choose(const smpi_case_t *c, hdring_alg_t forced, hdring_choice_t *choice)
{
    const hdring_model_t model = smpi_case_model(c);
    const hdring_coll_t coll = smpi_core_coll(c->coll);
    for (int k = 0; k < HDRING_NPHASES; ++k) {
        choice->phase[k] = HDRING_ALG_NONE;
    }
    if (HDRING_ALG_NONE == forced) { /* auto, as the component's decision (coll_hdring_decision.c) */
        hdring_plan_t plan;
        size_t lo;
        const hdring_plan_input_t in = {.coll = coll, .model = model, .small = 0, .large = 0};
        hdring_plan_build(&in, &plan);
        const hdring_plan_segment_t *seg = hdring_plan_lookup(&plan, c->actual, &lo);
        choice->alg = seg->alg;
        for (int k = 0; k < HDRING_NPHASES; ++k) {
            choice->phase[k] = seg->phase[k];
        }
    } else {
        if (!hdring_cost_applies(forced, &model)) {
            return false;
        }
        choice->alg = forced;
        if (HDRING_ALG_NONE != hdring_algorithm(forced)->inner) { /* the model chooses the phases */
            hdring_cost_time(forced, &model, (double) c->actual, choice->phase);
        }
    }
    choice->segment = hdring_choice_segment(choice, &model, c->actual);
    return true;
}

/* ---- hdring's run: the arguments as coll_hdring_task.c's plan_run gives them ---- */

typedef struct hdring_call {
    smpi_case_t *c;
    hdring_alg_t alg;
    hdring_args_t args;
    hdring_blocks_t blocks;
    hdring_partition_t parts;
    smpi_xport_t t;
    char *tmp, *work;
    int status;
} hdring_call_t;

static bool prepare(hdring_call_t *h, smpi_case_t *c, const hdring_choice_t *choice)
{
    const smpi_world_t *w = c->w;
    const hdring_partition_t *parts = NULL;
    size_t elem_size = 1;
    memset(h, 0, sizeof(*h));
    h->c = c;
    h->alg = choice->alg;
    switch (c->coll) {
    case SMPI_REDUCE_SCATTER:
        h->parts = hdring_partition_of_displs(w->p, c->displ);
        parts = &h->parts;
        elem_size = c->elem;
        break;
    case SMPI_REDUCE_SCATTER_BLOCK:
        h->parts = hdring_partition_uniform(w->p, c->count);
        parts = &h->parts;
        elem_size = c->elem;
        break;
    case SMPI_ALLGATHER:
        h->parts = hdring_partition_uniform(w->p, c->count);
        parts = &h->parts;
        break;
    case SMPI_ALLREDUCE:
        elem_size = c->elem;
        break;
    default: /* bcast: MPI_CHAR, so a choice that cuts the message (it runs on bytes) finds the same count */
        break;
    }
    h->args.count = c->count;
    h->args.root = 0;
    hdring_choice_args(choice, &w->topo, false, parts, elem_size, &h->blocks, &h->args);
    if (NULL != parts) {
        h->blocks.parts = &h->parts;
        h->args.blocks = &h->blocks;
    }
    const bool locality = hdring_in_locality_order(&w->topo, false);
    smpi_xport_init(&h->t, w->comm, locality ? w->topo.vrank_of[w->rank] : w->rank, w->p,
                    locality ? w->topo.order : NULL, c->elem, w->reduce_rate, c->check);
    const hdring_scratch_t need = hdring_scratch(&h->t.x, h->alg, &h->args);
    smpi_xport_release(&h->t);
    h->tmp = buffer(need.tmp * c->elem, c->check);
    h->work = buffer(need.work * c->elem, c->check);
    if (NULL == h->tmp || NULL == h->work) {
        return false;
    }
    h->t.base[HDRING_BUF_IN] = c->in;
    h->t.base[HDRING_BUF_OUT] = c->out;
    h->t.base[HDRING_BUF_TMP] = h->tmp;
    h->t.base[HDRING_BUF_WORK] = h->work;
    return true;
}

static void hdring_call(void *arg)
{
    hdring_call_t *h = arg;
    const smpi_case_t *c = h->c;
    if (SMPI_ALLGATHER == c->coll && c->check) { /* the rank's own block into place: a local copy, free */
        memcpy(c->out + (size_t) c->w->rank * c->count, c->in, c->count);
    }
    const int rc = hdring_run(&h->t.x, h->alg, &h->args);
    h->status = HDRING_OK == h->status ? rc : h->status;
    smpi_xport_release(&h->t);
}

static void mpi_call(void *arg)
{
    smpi_case_t *c = arg;
    switch (c->coll) {
    case SMPI_ALLREDUCE:
        MPI_Allreduce(c->in, c->out, (int) c->count, MPI_FLOAT, c->op, c->w->comm);
        break;
    case SMPI_REDUCE_SCATTER:
        MPI_Reduce_scatter(c->in, c->out, c->rcounts, MPI_FLOAT, c->op, c->w->comm);
        break;
    case SMPI_REDUCE_SCATTER_BLOCK:
        MPI_Reduce_scatter_block(c->in, c->out, (int) c->count, MPI_FLOAT, c->op, c->w->comm);
        break;
    case SMPI_ALLGATHER:
        MPI_Allgather(c->in, (int) c->count, MPI_CHAR, c->out, (int) c->count, MPI_CHAR, c->w->comm);
        break;
    default:
        MPI_Bcast(c->out, (int) c->count, MPI_CHAR, 0, c->w->comm);
        break;
    }
}

double smpi_case_time(smpi_case_t *c, const hdring_choice_t *choice, int calls, bool *ok)
{
    hdring_call_t h;
    void (*call)(void *) = NULL == choice ? mpi_call : hdring_call;
    void *arg = NULL == choice ? (void *) c : (void *) &h;
    int good = 1;
    memset(&h, 0, sizeof(h));
    if (NULL != choice && !prepare(&h, c, choice)) {
        return -1;
    }
    if (c->check) {
        smpi_check_fill(c);
    }
    if (c->check || NULL == choice) { /* SMPI's first call may set up its communicator (its SMP-aware algorithms
                                         build node communicators in it): untimed, like the check's own */
        smpi_barrier(c->w->comm);
        call(arg);
        good = !c->check || smpi_check_verify(c);
    }
    const double t = smpi_time_calls(c->w->comm, calls, call, arg);
    if (NULL != choice) {
        good &= HDRING_OK == h.status;
        release(h.tmp, c->check);
        release(h.work, c->check);
    }
    double bad = !good;
    smpi_allmax(c->w->comm, &bad, 1);
    *ok = 0 == bad;
    return t;
}
