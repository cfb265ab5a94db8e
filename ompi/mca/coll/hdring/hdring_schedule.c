/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring schedules (hdring_schedule.h): the recording transport and the runs.
 */
#include "hdring_schedule.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Messages a schedule may hold, all steps together. */
#define MAX_MSGS (4 * (size_t) HDRING_SCHEDULE_MAX_STEPS)

void hdring_schedule_init(hdring_schedule_t *s) { memset(s, 0, sizeof(*s)); }

void hdring_schedule_free(hdring_schedule_t *s)
{
    free(s->steps);
    free(s->msgs);
    hdring_schedule_init(s);
}

size_t hdring_schedule_bytes(const hdring_schedule_t *s)
{
    return s->steps_cap * sizeof(*s->steps) + s->msgs_cap * sizeof(*s->msgs);
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
    r->s->widest = st->nsends + st->nrecvs > r->s->widest ? st->nsends + st->nrecvs : r->s->widest;
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
    const hdring_xport_t rx = {&record_ops, &r, x->rank, x->size, x->view, x->channel};

    s->nsteps = 0;
    s->nmsgs = 0;
    s->widest = 0;
    const int rc = hdring_run(&rx, alg, a);
    if (HDRING_OK != r.error) {
        return r.error;
    }
    return HDRING_OK != rc ? rc : 0 == r.used ? HDRING_OK : HDRING_ERR_UNSUPPORTED;
}

/* ---- streaming ---- */

/* The base transport, and room for one exchange's resolved messages. */
typedef struct streamer {
    const hdring_xport_t *base;
} streamer_t;

/* The non-empty messages of list resolved to the base transport into out: how many. */
static int resolved_msgs(const hdring_xport_t *x, const hdring_msg_t *list, int n, hdring_msg_t *out)
{
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        if (0 != list[i].count) {
            out[kept++] = hdring_msg(hdring_view_peer(x->view, list[i].peer), hdring_view_loc(x->view, list[i].at),
                                     list[i].count);
        }
    }
    return kept;
}

static int stream_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                           int nrecvs)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    hdring_msg_t stack[2 * HDRING_EXCHANGE_STACK], *msgs = stack;
    if (nsends + nrecvs > 2 * HDRING_EXCHANGE_STACK &&
        NULL == (msgs = hdring_take(base, (size_t) nsends + (size_t) nrecvs, sizeof(*msgs)))) {
        return HDRING_ERR_NOMEM;
    }
    const int ns = resolved_msgs(x, sends, nsends, msgs), nr = resolved_msgs(x, recvs, nrecvs, msgs + ns);
    return 0 == ns + nr ? HDRING_OK : base->ops->exchange(base, msgs, ns, msgs + ns, nr);
}

static int stream_start(const hdring_xport_t *x, const hdring_msg_t *msg, bool is_send, hdring_req_t *req)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    hdring_msg_t resolved;
    if (0 == resolved_msgs(x, msg, 1, &resolved)) {
        *req = HDRING_REQ_NONE;
        return HDRING_OK;
    }
    return base->ops->start(base, &resolved, is_send, req);
}

static int stream_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    return base->ops->wait(base, reqs, n);
}

static int stream_reduce(const hdring_xport_t *x, hdring_loc_t left, hdring_loc_t right, hdring_loc_t dst,
                         size_t count, unsigned flags)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    return 0 == count ? HDRING_OK
                      : base->ops->reduce(base, hdring_view_loc(x->view, left), hdring_view_loc(x->view, right),
                                          hdring_view_loc(x->view, dst), count, flags);
}

static int stream_copy(const hdring_xport_t *x, hdring_loc_t src, hdring_loc_t dst, size_t count)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    src = hdring_view_loc(x->view, src);
    dst = hdring_view_loc(x->view, dst);
    return 0 == count || (src.buf == dst.buf && src.off == dst.off) ? HDRING_OK
                                                                    : base->ops->copy(base, src, dst, count);
}

static void *stream_take(const hdring_xport_t *x, size_t bytes)
{
    const hdring_xport_t *base = ((const streamer_t *) x->ctx)->base;
    return base->ops->take(base, bytes);
}

static const hdring_transport_ops_t stream_ops = {
    .exchange = stream_exchange,
    .start = stream_start,
    .wait = stream_wait,
    .reduce = stream_reduce,
    .copy = stream_copy,
    .take = stream_take,
};

int hdring_schedule_stream(const hdring_xport_t *x, hdring_alg_t alg, const hdring_args_t *a)
{
    streamer_t s = {x};
    const hdring_xport_t sx = {&stream_ops, &s, x->rank, x->size, NULL, x->channel};
    return hdring_run(&sx, alg, a);
}

/* ---- runs ---- */

int hdring_exec_run(hdring_exec_t *e, const hdring_xport_t *x, bool block)
{
    return hdring_exec_steps(e, x, x->ops, block);
}
