/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring schedules (hdring_schedule.h): the recording transport, the replay, the record-or-run policy.
 */
#include "hdring_schedule.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Messages an exchange may add to a schedule, all steps together. */
#define MAX_MSGS (4 * HDRING_SCHEDULE_MAX_STEPS)

void hdring_schedule_init(hdring_schedule_t *s) { memset(s, 0, sizeof(*s)); }

void hdring_schedule_free(hdring_schedule_t *s)
{
    free(s->displ);
    free(s->steps);
    free(s->msgs);
    hdring_schedule_init(s);
}

/* Room in *array (of *cap items of `item` bytes) for `need` items, growing it up to `max`. */
static bool grow(void **array, size_t *cap, size_t need, size_t item, size_t max)
{
    if (need <= *cap) {
        return true;
    }
    size_t n = 0 == *cap ? 16 : 2 * *cap;
    n = n < need ? need : n;
    n = n > max ? max : n;
    void *grown = realloc(*array, n * item);
    if (NULL == grown) {
        return false;
    }
    *array = grown;
    *cap = n;
    return true;
}

/* ---- the key ---- */

static bool same_parts(const hdring_partition_t *x, const hdring_partition_t *y)
{
    if (x->nparts != y->nparts || (NULL == x->displ) != (NULL == y->displ)) {
        return false;
    }
    if (NULL == x->displ) {
        return x->first == y->first && x->base == y->base && x->extra == y->extra;
    }
    for (int j = 0; j <= x->nparts; ++j) {
        if (hdring_partition_boundary(x, j) != hdring_partition_boundary(y, j)) {
            return false;
        }
    }
    return true;
}

static bool same_blocks(const hdring_blocks_t *x, const hdring_blocks_t *y)
{
    if (NULL == x || NULL == y) {
        return x == y;
    }
    return x->block_of == y->block_of && x->owner_of == y->owner_of && same_parts(x->parts, y->parts);
}

bool hdring_schedule_matches(const hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg,
                             const hdring_args_t *a)
{
    const hdring_args_t *k = &s->args;
    if (!s->keyed || s->alg != alg || s->rank != x->rank || s->size != x->size || k->count != a->count ||
        k->ordered != a->ordered || k->root != a->root || k->near_first != a->near_first ||
        k->segment != a->segment || k->nodes != a->nodes || k->ppn != a->ppn) {
        return false;
    }
    for (int i = 0; i < HDRING_NPHASES; ++i) {
        if (k->phase[i] != a->phase[i]) {
            return false;
        }
    }
    return same_blocks(k->blocks, a->blocks);
}

/* Keys s with this call's arguments (one call so far); false if its boundaries cannot be copied. */
static bool set_key(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a)
{
    s->keyed = false;
    s->recorded = false;
    s->direct = false;
    s->alg = alg;
    s->rank = x->rank;
    s->size = x->size;
    s->args = *a;
    s->calls = 1;
    if (NULL != a->blocks) {
        const hdring_partition_t *pt = a->blocks->parts;
        s->parts = *pt;
        if (NULL != pt->displ) {
            const size_t n = (size_t) pt->nparts + 1;
            if (!grow((void **) &s->displ, &s->displ_cap, n, sizeof(*s->displ), n)) {
                return false;
            }
            for (int j = 0; j <= pt->nparts; ++j) {
                s->displ[j] = hdring_partition_boundary(pt, j);
            }
            s->parts.displ = s->displ;
            s->parts.first = 0;
        }
        s->blocks = *a->blocks;
        s->blocks.parts = &s->parts;
        s->args.blocks = &s->blocks;
    }
    s->keyed = true;
    return true;
}

/* ---- recording ---- */

typedef struct recorder {
    hdring_schedule_t *s;
    const hdring_xport_t *base; /* the real transport: its take */
    uint32_t used;              /* slots started and not yet waited for */
    int error;                  /* HDRING_ERR_NOMEM, or HDRING_ERR_UNSUPPORTED: too long */
} recorder_t;

/* Room for one more step and n more messages, or the recording's error. */
static hdring_step_t *new_step(recorder_t *r, size_t nmsgs)
{
    hdring_schedule_t *s = r->s;
    if (s->nsteps >= HDRING_SCHEDULE_MAX_STEPS || nmsgs > MAX_MSGS - s->nmsgs) {
        r->error = HDRING_ERR_UNSUPPORTED;
        return NULL;
    }
    if (!grow((void **) &s->steps, &s->steps_cap, s->nsteps + 1, sizeof(*s->steps), HDRING_SCHEDULE_MAX_STEPS) ||
        !grow((void **) &s->msgs, &s->msgs_cap, s->nmsgs + nmsgs, sizeof(*s->msgs), MAX_MSGS)) {
        r->error = HDRING_ERR_NOMEM;
        return NULL;
    }
    hdring_step_t *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof(*st));
    st->first = s->nmsgs;
    return st;
}

/* Appends the non-empty messages of list, resolved to the base transport; how many. */
static int add_msgs(recorder_t *r, const hdring_xport_t *x, const hdring_msg_t *list, int n)
{
    int added = 0;
    for (int i = 0; i < n; ++i) {
        if (0 != list[i].count) {
            r->s->msgs[r->s->nmsgs++] = hdring_msg(hdring_view_peer(x->view, list[i].peer),
                                                   hdring_view_loc(x->view, list[i].at), list[i].count);
            ++added;
        }
    }
    return added;
}

static int record_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                           int nrecvs)
{
    recorder_t *r = x->ctx;
    hdring_step_t *st = new_step(r, (size_t) nsends + (size_t) nrecvs);
    if (NULL == st) {
        return r->error;
    }
    st->kind = HDRING_STEP_EXCHANGE;
    st->nsends = add_msgs(r, x, sends, nsends);
    st->nrecvs = add_msgs(r, x, recvs, nrecvs);
    r->s->nsteps -= 0 == st->nsends + st->nrecvs; /* nothing to do */
    return HDRING_OK;
}

static int record_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    recorder_t *r = x->ctx;
    if (0 == ~r->used) {
        return HDRING_ERR_TRANSPORT; /* as the real transport: more than HDRING_MAX_INFLIGHT in flight */
    }
    hdring_step_t *st = new_step(r, 1);
    if (NULL == st) {
        return r->error;
    }
    st->kind = HDRING_STEP_START;
    st->is_send = is_send;
    st->slot = __builtin_ctz(~r->used);
    add_msgs(r, x, msg, 1);
    r->used |= 1u << st->slot;
    *req = st->slot;
    return HDRING_OK;
}

static int record_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    recorder_t *r = x->ctx;
    uint32_t slots = 0;
    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            slots |= 1u << reqs[i];
            reqs[i] = HDRING_REQ_NONE;
        }
    }
    if (0 == slots) {
        return HDRING_OK;
    }
    hdring_step_t *st = new_step(r, 0);
    if (NULL == st) {
        return r->error;
    }
    st->kind = HDRING_STEP_WAIT;
    st->slots = slots;
    r->used &= ~slots;
    return HDRING_OK;
}

static int record_local(recorder_t *r, const hdring_xport_t *x, hdring_step_kind_t kind, hdring_loc_t left,
                        hdring_loc_t right, hdring_loc_t dst, size_t count, unsigned flags)
{
    left = hdring_view_loc(x->view, left);
    dst = hdring_view_loc(x->view, dst);
    if (0 == count || (HDRING_STEP_COPY == kind && left.buf == dst.buf && left.off == dst.off)) {
        return HDRING_OK;
    }
    hdring_step_t *st = new_step(r, 0);
    if (NULL == st) {
        return r->error;
    }
    st->kind = kind;
    st->left = left;
    st->right = hdring_view_loc(x->view, right);
    st->dst = dst;
    st->count = count;
    st->flags = flags;
    return HDRING_OK;
}

static int record_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                         size_t count, unsigned flags)
{
    return record_local(x->ctx, x, HDRING_STEP_REDUCE, left, right, dst, count, flags);
}

static int record_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    return record_local(x->ctx, x, HDRING_STEP_COPY, src, src, dst, count, 0);
}

static void *record_take(const hdring_xport_t *x, size_t bytes)
{
    const recorder_t *r = x->ctx;
    return r->base->ops->take(r->base, bytes);
}

static const hdring_transport_ops_t record_ops = {
    .exchange = record_exchange,
    .start = record_start,
    .wait = record_wait,
    .reduce = record_reduce,
    .copy = record_copy,
    .take = record_take,
};

int hdring_schedule_record(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a)
{
    recorder_t r = {s, x, 0, HDRING_OK};
    const hdring_xport_t rx = {&record_ops, &r, x->rank, x->size, NULL};

    s->recorded = false;
    s->nsteps = 0;
    s->nmsgs = 0;
    if (NULL != x->view) {
        return HDRING_ERR_UNSUPPORTED;
    }
    const int rc = hdring_run(&rx, alg, a);
    if (HDRING_OK != r.error) {
        return r.error;
    }
    s->recorded = HDRING_OK == rc && 0 == r.used;
    return HDRING_OK != rc ? rc : s->recorded ? HDRING_OK : HDRING_ERR_UNSUPPORTED;
}

/* ---- replay ---- */

int hdring_schedule_step(const hdring_xport_t *x, const hdring_schedule_t *s, size_t i, hdring_req_t *live)
{
    const hdring_step_t *st = &s->steps[i];
    const hdring_msg_t *msgs = &s->msgs[st->first];
    hdring_req_t waiting[HDRING_MAX_INFLIGHT];
    int n = 0;
    switch (st->kind) {
    case HDRING_STEP_EXCHANGE:
        return x->ops->exchange(x, msgs, st->nsends, msgs + st->nsends, st->nrecvs);
    case HDRING_STEP_START:
        return x->ops->start(x, msgs, st->is_send, &live[st->slot]);
    case HDRING_STEP_WAIT:
        for (uint32_t left = st->slots; 0 != left; left &= left - 1) {
            waiting[n++] = live[__builtin_ctz(left)];
        }
        return x->ops->wait(x, waiting, n);
    case HDRING_STEP_REDUCE:
        return x->ops->reduce(x, st->left, st->right, st->dst, st->count, st->flags);
    case HDRING_STEP_COPY:
        return x->ops->copy(x, st->left, st->dst, st->count);
    }
    return HDRING_ERR_UNSUPPORTED;
}

int hdring_schedule_replay(const hdring_xport_t *x, const hdring_schedule_t *s)
{
    hdring_req_t live[HDRING_MAX_INFLIGHT];
    int rc = HDRING_OK;
    for (size_t i = 0; i < s->nsteps && HDRING_OK == rc; ++i) {
        rc = hdring_schedule_step(x, s, i, live);
    }
    return rc;
}

/* ---- the policy ---- */

int hdring_schedule_run(hdring_schedule_t *s, const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a,
                        int record_after)
{
    s->how = HDRING_RAN_DIRECT;
    if (record_after <= 0 || NULL != x->view) {
        return hdring_run(x, alg, a);
    }
    if (hdring_schedule_matches(s, x, alg, a)) {
        s->calls += s->calls < INT_MAX;
    } else if (!set_key(s, x, alg, a)) {
        return hdring_run(x, alg, a);
    }
    s->how = HDRING_RAN_REPLAYED;
    if (!s->recorded && !s->direct && s->calls >= record_after) {
        s->direct = HDRING_OK != hdring_schedule_record(s, x, alg, a);
        s->how = HDRING_RAN_RECORDED;
    }
    if (!s->recorded) {
        s->how = HDRING_RAN_DIRECT;
        return hdring_run(x, alg, a);
    }
    return hdring_schedule_replay(x, s);
}
