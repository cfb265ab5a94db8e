/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hdring_sim: see hdring_sim.h. */
#include "hdring_sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define STACK_BYTES (128 * 1024)
#define POISON 0xA5

/* One end of a message: a send posted by src or a receive posted by dst. */
typedef struct sim_rec {
    struct sim_rec *next; /* in the pending list where it waits for its match */
    int src, dst;
    int channel;  /* matches records of its channel only */
    bool is_send;
    bool started; /* posted by start (in flight until waited for), not by an exchange */
    bool awaited; /* its rank is blocked until it completes */
    struct sim_rec *partner; /* the other end once matched */
    size_t count;
    char *addr;
    double ready; /* when this end can start: an exchange's post time plus the port's earlier messages of the
                     batch; a started message's post time */
    double end;
    bool done;
} sim_rec_t;

typedef enum { RANK_READY, RANK_BLOCKED, RANK_POLLING, RANK_FINISHED } rank_state_t;

#define SIM_CHANNELS 16 /* channels a rank may have a nonblocking exchange posted on at once */

/* A nonblocking exchange posted and not yet completed (sim_post_exchange). */
typedef struct posted {
    sim_rec_t *recs;
    int n;
} posted_t;

/* One direction of a node's link: the intervals it is busy, sorted by start. */
typedef struct busy {
    double *start, *end;
    int n, cap;
} busy_t;

typedef struct sim_rank {
    ucontext_t ctx;
    void *stack;
    rank_state_t state;
    int waiting;              /* awaited records not yet matched */
    sim_rec_t *inflight[HDRING_MAX_INFLIGHT]; /* started, not yet waited for */
    posted_t posted[SIM_CHANNELS];            /* nonblocking exchanges in flight, by channel */
    bool completed;                           /* a record of its completed since it last polled */
    busy_t send_port, recv_port;              /* when its started messages occupy its ports */
    busy_t activity;          /* when it transferred or reduced: its busy time is their union */
    sim_rec_t *unmatched_sends; /* sends addressed to this rank, in posting order */
    sim_rec_t *unmatched_recvs; /* receives this rank posted, in posting order */
    double clock;
    struct {
        char *mem;
        size_t elems;
        bool writable;
    } buf[HDRING_NBUFS];
    sim_stats_t stats;
    int result;
    hdring_xport_t xport;
} sim_rank_t;

struct sim_world {
    int p;
    sim_op_t op;
    sim_cost_t cost;    /* within a node */
    sim_cost_t network; /* between nodes */
    int nodes;
    int *node_of;       /* NULL: one node */
    busy_t *link_out, *link_in;
    sim_link_stats_t *link_stats;
    sim_rank_t *ranks;
    ucontext_t main;
    int *ready, ready_count; /* a heap of ready ranks, the earliest clock (then the longest waiting) first */
    unsigned long *ready_seq, seq;
    char error[512];
    int (*body)(const hdring_xport_t *x, void *arg);
    void *arg;
    char *tmp;
    size_t tmp_bytes;
    void *taken; /* memory hdring_take handed out, chained through its first word, freed with the world */
};

/* makecontext cannot pass pointers portably; the simulator is single-threaded, so a static will do. */
static sim_world_t *running_world;
static int running_rank;

static int fail(sim_world_t *w, const char *fmt, ...)
{
    if ('\0' == w->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->error, sizeof(w->error), fmt, ap);
        va_end(ap);
    }
    return HDRING_ERR_TRANSPORT;
}

static const char *buf_name(hdring_buf_t b)
{
    static const char *const names[HDRING_NBUFS] = {"IN", "OUT", "TMP", "WORK"};
    return b < HDRING_NBUFS ? names[b] : "?";
}

static bool overlap(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen > 0 && blen > 0 && a < b + blen && b < a + alen;
}

/* Address of a range of rank r's buffer, or NULL (and an error) if it is out of bounds. */
static char *range(sim_world_t *w, int r, hdring_loc_t at, size_t count, bool write, const char *what)
{
    sim_rank_t *rk = &w->ranks[r];
    if (at.buf >= HDRING_NBUFS || NULL == rk->buf[at.buf].mem) {
        fail(w, "rank %d: %s uses buffer %s, which this call does not have", r, what, buf_name(at.buf));
        return NULL;
    }
    if (at.off > rk->buf[at.buf].elems || count > rk->buf[at.buf].elems - at.off) {
        fail(w, "rank %d: %s of %s[%zu, %zu) outside its %zu elements", r, what, buf_name(at.buf), at.off,
             at.off + count, rk->buf[at.buf].elems);
        return NULL;
    }
    if (write && !rk->buf[at.buf].writable) {
        fail(w, "rank %d: %s writes read-only %s[%zu, %zu)", r, what, buf_name(at.buf), at.off, at.off + count);
        return NULL;
    }
    char *addr = rk->buf[at.buf].mem + at.off * w->op.elem_size;
    for (int i = 0; i < HDRING_MAX_INFLIGHT; ++i) { /* a receive in flight is not to be touched, a send's not changed */
        const sim_rec_t *m = rk->inflight[i];
        if (NULL != m && (write || !m->is_send) &&
            overlap(addr, count * w->op.elem_size, m->addr, m->count * w->op.elem_size)) {
            fail(w, "rank %d: %s of %s[%zu, %zu) touches a message in flight", r, what, buf_name(at.buf), at.off,
                 at.off + count);
            return NULL;
        }
    }
    return addr;
}

/* ---- the ready heap ---- */

static bool earlier(const sim_world_t *w, int i, int j)
{
    const double ci = w->ranks[w->ready[i]].clock, cj = w->ranks[w->ready[j]].clock;
    return ci < cj || (ci == cj && w->ready_seq[i] < w->ready_seq[j]);
}

static void heap_swap(sim_world_t *w, int i, int j)
{
    const int r = w->ready[i];
    const unsigned long q = w->ready_seq[i];
    w->ready[i] = w->ready[j];
    w->ready_seq[i] = w->ready_seq[j];
    w->ready[j] = r;
    w->ready_seq[j] = q;
}

static void make_ready(sim_world_t *w, int r)
{
    int i = w->ready_count++;
    w->ranks[r].state = RANK_READY;
    w->ready[i] = r;
    w->ready_seq[i] = w->seq++;
    while (i > 0 && earlier(w, i, (i - 1) / 2)) {
        heap_swap(w, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static int next_ready(sim_world_t *w)
{
    const int r = w->ready[0];
    heap_swap(w, 0, --w->ready_count);
    for (int i = 0;;) {
        const int l = 2 * i + 1, rt = l + 1;
        int m = i;
        m = l < w->ready_count && earlier(w, l, m) ? l : m;
        m = rt < w->ready_count && earlier(w, rt, m) ? rt : m;
        if (m == i) {
            break;
        }
        heap_swap(w, i, m);
        i = m;
    }
    return r;
}

/* ---- node links ---- */

static bool free_during(const busy_t *b, double t, double d, double *until)
{
    for (int i = 0; i < b->n && b->start[i] < t + d; ++i) {
        if (t < b->end[i]) {
            *until = b->end[i];
            return false;
        }
    }
    return true;
}

/* The earliest time from `ready` when every busy set sets[i] is free for durations[i]. */
static double earliest_gap(busy_t *const *sets, const double *durations, int n, double ready)
{
    double t = ready, until;
    for (int i = 0; i < n;) {
        if (free_during(sets[i], t, durations[i], &until)) {
            ++i;
        } else {
            t = until;
            i = 0;
        }
    }
    return t;
}

static void occupy(sim_world_t *w, busy_t *b, double t, double d)
{
    if (d <= 0) { /* occupies nothing */
        return;
    }
    if (b->n == b->cap) {
        const int cap = 0 == b->cap ? 64 : 2 * b->cap;
        double *st = realloc(b->start, (size_t) cap * sizeof(*st)), *en = NULL;
        if (NULL != st) {
            b->start = st;
            en = realloc(b->end, (size_t) cap * sizeof(*en));
        }
        if (NULL == en) {
            fail(w, "out of memory");
            return;
        }
        b->end = en;
        b->cap = cap;
    }
    int i = b->n++;
    while (i > 0 && b->start[i - 1] > t) { /* keep sorted by start */
        b->start[i] = b->start[i - 1];
        b->end[i] = b->end[i - 1];
        --i;
    }
    b->start[i] = t;
    b->end[i] = t + d;
}

/* When a message between nodes that can start at `ready` ends: the earliest gap of its length in both link
 * directions, then alpha. */
static double cross_link(sim_world_t *w, int src, int dst, double ready, size_t bytes)
{
    busy_t *out = &w->link_out[w->node_of[src]], *in = &w->link_in[w->node_of[dst]];
    const double d = (double) bytes * w->network.beta;
    const double t = earliest_gap((busy_t *[]) {out, in}, (const double[]) {d, d}, 2, ready);
    if (d > 0) {
        occupy(w, out, t, d);
        occupy(w, in, t, d);
    }
    w->link_stats[w->node_of[src]].bytes_sent += bytes;
    w->link_stats[w->node_of[dst]].bytes_received += bytes;
    return t + d + w->network.alpha;
}

static bool across_nodes(const sim_world_t *w, int a, int b)
{
    return NULL != w->node_of && w->node_of[a] != w->node_of[b];
}

/* When a started message (hdring_isend, hdring_irecv) between nodes ends: the earliest time from `ready` when the
 * sender's send port and the receiver's receive port are both free for alpha + bytes beta and both node link
 * directions for bytes beta, which it then occupies. */
static double claim_ports(sim_world_t *w, int src, int dst, double ready, size_t bytes)
{
    const double wire = (double) bytes * w->network.beta, d = w->network.alpha + wire;
    busy_t *sp = &w->ranks[src].send_port, *rp = &w->ranks[dst].recv_port;
    busy_t *out = &w->link_out[w->node_of[src]], *in = &w->link_in[w->node_of[dst]];
    const double t = earliest_gap((busy_t *[]) {sp, rp, out, in}, (const double[]) {d, d, wire, wire}, 4, ready);
    occupy(w, sp, t, d);
    occupy(w, rp, t, d);
    if (wire > 0) {
        occupy(w, out, t, wire);
        occupy(w, in, t, wire);
    }
    w->link_stats[w->node_of[src]].bytes_sent += bytes;
    w->link_stats[w->node_of[dst]].bytes_received += bytes;
    occupy(w, &w->ranks[src].activity, t, d);
    occupy(w, &w->ranks[dst].activity, t, d);
    return t + d;
}

/* When a message within a node that can start at `ready` ends: its receiver copies it in, in the earliest gap of
 * alpha + bytes beta its receive port has from then (the sender's port stays free: a rank's sends within a node
 * overlap). */
static double claim_receiver(sim_world_t *w, int src, int dst, double ready, size_t bytes)
{
    const double d = w->cost.alpha + (double) bytes * w->cost.beta;
    busy_t *rp = &w->ranks[dst].recv_port;
    const double t = earliest_gap(&rp, &d, 1, ready);
    occupy(w, rp, t, d);
    occupy(w, &w->ranks[src].activity, t, d);
    occupy(w, &w->ranks[dst].activity, t, d);
    return t + d;
}

/* Within a node a started message is copied in by its receiver, as Open MPI's shared-memory transport does for
 * all but small messages: its transfer starts once the receiver waits for it. */
static bool copied_in_by_receiver(const sim_world_t *w, const sim_rec_t *send, const sim_rec_t *recv)
{
    return (send->started || recv->started) && !across_nodes(w, send->src, send->dst);
}

/* Times a matched message, from the later of its posts (and of its receiver's wait, when the receiver copies it
 * in), and wakes the ranks waiting for it. */
static void time_message(sim_world_t *w, sim_rec_t *send, sim_rec_t *recv)
{
    const size_t bytes = send->count * w->op.elem_size;
    double start = send->ready > recv->ready ? send->ready : recv->ready;
    if (copied_in_by_receiver(w, send, recv) && w->ranks[recv->dst].clock > start) {
        start = w->ranks[recv->dst].clock;
    }
    if (!across_nodes(w, send->src, send->dst)) {
        send->end = recv->end = claim_receiver(w, send->src, send->dst, start, bytes);
    } else if (send->started || recv->started) {
        send->end = recv->end = claim_ports(w, send->src, send->dst, start, bytes);
    } else {
        send->end = recv->end = cross_link(w, send->src, send->dst, start, bytes);
    }
    send->done = recv->done = true;
    sim_rec_t *const ends[2] = {send, recv};
    for (int i = 0; i < 2; ++i) {
        const int r = ends[i]->is_send ? ends[i]->src : ends[i]->dst;
        sim_rank_t *rk = &w->ranks[r];
        rk->completed = true;
        if (ends[i]->awaited && 0 == --rk->waiting && RANK_BLOCKED == rk->state) {
            make_ready(w, r);
        } else if (RANK_POLLING == rk->state) {
            make_ready(w, r);
        }
    }
}

static void match(sim_world_t *w, sim_rec_t *send, sim_rec_t *recv)
{
    const size_t bytes = send->count * w->op.elem_size;
    if (send->count != recv->count) {
        fail(w, "rank %d sends %zu elements to rank %d, which expects %zu", send->src, send->count, send->dst,
             recv->count);
    }
    memcpy(recv->addr, send->addr, (send->count < recv->count ? send->count : recv->count) * w->op.elem_size);
    send->partner = recv;
    recv->partner = send;
    w->ranks[send->src].stats.bytes_sent += bytes;
    w->ranks[send->src].stats.msgs_sent += 1;
    w->ranks[recv->dst].stats.bytes_received += bytes;
    w->ranks[recv->dst].stats.msgs_received += 1;
    if (!copied_in_by_receiver(w, send, recv) || recv->awaited) {
        time_message(w, send, recv);
    } else if (RANK_POLLING == w->ranks[recv->dst].state) { /* its next test copies it in */
        w->ranks[recv->dst].completed = true;
        make_ready(w, recv->dst);
    }
}

/* The first record from `src` on `channel` in a pending list, unlinked; NULL if none. */
static sim_rec_t *take_from(sim_rec_t **list, int src, int channel)
{
    for (sim_rec_t **pp = list; NULL != *pp; pp = &(*pp)->next) {
        if ((*pp)->src == src && (*pp)->channel == channel) {
            sim_rec_t *found = *pp;
            *pp = found->next;
            return found;
        }
    }
    return NULL;
}

static void append(sim_rec_t **list, sim_rec_t *rec)
{
    while (NULL != *list) {
        list = &(*list)->next;
    }
    rec->next = NULL;
    *list = rec;
}

/* Matches a newly posted record with the other end if it is already posted, else queues it. */
static void post_record(sim_world_t *w, int r, sim_rec_t *rec)
{
    if (rec->is_send) { /* is its receive posted? */
        sim_rec_t *recv = take_from(&w->ranks[rec->dst].unmatched_recvs, r, rec->channel);
        if (NULL != recv) {
            match(w, rec, recv);
        } else {
            append(&w->ranks[rec->dst].unmatched_sends, rec);
        }
    } else {
        sim_rec_t *send = take_from(&w->ranks[r].unmatched_sends, rec->src, rec->channel);
        if (NULL != send) {
            match(w, send, rec);
        } else {
            append(&w->ranks[r].unmatched_recvs, rec);
        }
    }
}

/* Blocks the running rank until its awaited records are matched. */
static void block_until_matched(sim_world_t *w, sim_rank_t *rk)
{
    if (rk->waiting > 0) {
        rk->state = RANK_BLOCKED;
        swapcontext(&rk->ctx, &w->main);
    }
}

/* The records of an exchange's messages, checked, matched with their other ends where posted: *recs (free it) and
 * *nrecs, or an error. Each is awaited (the rank blocks until it completes: block_until_matched) when `blocking`;
 * a nonblocking exchange's are timed as they match all the same (they are not started messages). */
static int post_exchange_records(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends,
                                 const hdring_msg_t *recvs, int nrecvs, bool blocking, sim_rec_t **recs_out,
                                 int *nrecs_out)
{
    sim_world_t *w = x->ctx;
    const int r = running_rank;
    sim_rank_t *rk = &w->ranks[r];
    const int n = nsends + nrecvs;
    sim_rec_t *recs = calloc((size_t) (n > 0 ? n : 1), sizeof(*recs));
    double send_port = rk->clock, recv_port = rk->clock;
    int nrecs = 0, rc = HDRING_OK;

    if (NULL == recs) {
        return fail(w, "out of memory");
    }
    for (int i = 0; i < n && HDRING_OK == rc; ++i) {
        const bool is_send = i < nsends;
        const hdring_msg_t *m = is_send ? &sends[i] : &recvs[i - nsends];
        if (0 == m->count) {
            continue;
        }
        if (m->peer < 0 || m->peer >= x->size) {
            rc = fail(w, "rank %d: %s peer %d of %d", r, is_send ? "send to" : "receive from", m->peer, x->size);
            break;
        }
        const int peer = hdring_view_peer(x->view, m->peer);
        if (peer < 0 || peer >= w->p || peer == r) {
            rc = fail(w, "rank %d: %s peer %d (%d in a view) of %d", r, is_send ? "send to" : "receive from", peer,
                      m->peer, w->p);
            break;
        }
        const hdring_loc_t at = hdring_view_loc(x->view, m->at);
        char *addr = range(w, r, at, m->count, !is_send, is_send ? "send" : "receive");
        if (NULL == addr) {
            rc = HDRING_ERR_TRANSPORT;
            break;
        }
        /* nothing may be received into a range this exchange also sends or receives */
        for (int j = 0; j < nrecs; ++j) {
            if ((!is_send || !recs[j].is_send) && overlap(addr, m->count * w->op.elem_size, recs[j].addr,
                                                 recs[j].count * w->op.elem_size)) {
                rc = fail(w, "rank %d: one exchange receives into a range it also sends or receives (%s[%zu])", r,
                          buf_name(at.buf), at.off);
            }
        }
        double *port = is_send ? &send_port : &recv_port;
        sim_rec_t *rec = &recs[nrecs++];
        rec->src = is_send ? r : peer;
        rec->dst = is_send ? peer : r;
        rec->channel = x->channel;
        rec->is_send = is_send;
        rec->count = m->count;
        rec->addr = addr;
        if (across_nodes(w, rec->src, rec->dst)) { /* queued on this rank's port in posting order */
            rec->ready = *port;
            *port += w->network.alpha + (double) (m->count * w->op.elem_size) * w->network.beta;
        } else { /* the receiver's port orders it when it is timed */
            rec->ready = rk->clock;
        }
    }
    if (HDRING_OK != rc) {
        free(recs);
        return rc;
    }
    if (nrecs > 0) {
        occupy(w, &rk->activity, rk->clock, (send_port > recv_port ? send_port : recv_port) - rk->clock);
    }
    rk->waiting += blocking ? nrecs : 0;
    for (int i = 0; i < nrecs; ++i) {
        recs[i].awaited = blocking;
        post_record(w, r, &recs[i]);
    }
    *recs_out = recs;
    *nrecs_out = nrecs;
    return HDRING_OK;
}

/* The end of an exchange whose records have all completed: the rank's clock at the last one. */
static int finish_exchange(sim_world_t *w, sim_rank_t *rk, sim_rec_t *recs, int nrecs)
{
    for (int i = 0; i < nrecs; ++i) {
        rk->clock = recs[i].end > rk->clock ? recs[i].end : rk->clock;
    }
    free(recs);
    return '\0' == w->error[0] ? HDRING_OK : HDRING_ERR_TRANSPORT;
}

static int sim_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                        int nrecvs)
{
    sim_world_t *w = x->ctx;
    sim_rank_t *rk = &w->ranks[running_rank];
    sim_rec_t *recs;
    int nrecs;
    const int rc = post_exchange_records(x, sends, nsends, recvs, nrecvs, true, &recs, &nrecs);
    if (HDRING_OK != rc) {
        return rc;
    }
    block_until_matched(w, rk);
    return finish_exchange(w, rk, recs, nrecs);
}

/* ---- nonblocking ---- */

static posted_t *posted_of(const hdring_xport_t *x)
{
    sim_world_t *w = x->ctx;
    if (x->channel < 0 || x->channel >= SIM_CHANNELS) {
        fail(w, "rank %d: channel %d (the simulator has %d)", running_rank, x->channel, SIM_CHANNELS);
        return NULL;
    }
    return &w->ranks[running_rank].posted[x->channel];
}

static int sim_post_exchange(const hdring_xport_t *x, const hdring_msg_t *sends, int nsends, const hdring_msg_t *recvs,
                             int nrecvs)
{
    posted_t *p = posted_of(x);
    if (NULL == p) {
        return HDRING_ERR_TRANSPORT;
    }
    if (NULL != p->recs) {
        return fail(x->ctx, "rank %d: a second exchange posted on channel %d", running_rank, x->channel);
    }
    return post_exchange_records(x, sends, nsends, recvs, nrecvs, false, &p->recs, &p->n);
}

static int sim_test_exchange(const hdring_xport_t *x, bool *done)
{
    sim_world_t *w = x->ctx;
    sim_rank_t *rk = &w->ranks[running_rank];
    posted_t *p = posted_of(x);
    if (NULL == p || NULL == p->recs) {
        return fail(w, "rank %d: tests channel %d, which has no exchange posted", running_rank, x->channel);
    }
    *done = true;
    for (int i = 0; i < p->n && *done; ++i) {
        *done = p->recs[i].done;
    }
    if (!*done) {
        return HDRING_OK;
    }
    sim_rec_t *recs = p->recs;
    p->recs = NULL;
    return finish_exchange(w, rk, recs, p->n);
}

static int sim_test(const hdring_xport_t *x, hdring_req_t *reqs, int n, bool *done)
{
    sim_world_t *w = x->ctx;
    const sim_rank_t *rk = &w->ranks[running_rank];
    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE == reqs[i]) {
            continue;
        }
        if (reqs[i] < 0 || reqs[i] >= HDRING_MAX_INFLIGHT || NULL == rk->inflight[reqs[i]]) {
            return fail(w, "rank %d tests message %d, which is not in flight", running_rank, reqs[i]);
        }
        sim_rec_t *rec = rk->inflight[reqs[i]];
        /* a receive copied in by its receiver moves once the receiver looks for it: a test starts it, as a wait
         * would */
        if (!rec->done && !rec->is_send && NULL != rec->partner) {
            time_message(w, rec->partner, rec);
        }
    }
    *done = true;
    for (int i = 0; i < n && *done; ++i) {
        *done = HDRING_REQ_NONE == reqs[i] || rk->inflight[reqs[i]]->done;
    }
    return *done ? x->ops->wait(x, reqs, n) : HDRING_OK;
}

void sim_poll(const hdring_xport_t *x)
{
    sim_world_t *w = x->ctx;
    sim_rank_t *rk = &w->ranks[running_rank];
    if (!rk->completed) {
        rk->state = RANK_POLLING;
        swapcontext(&rk->ctx, &w->main);
    }
    rk->completed = false;
}

static int sim_start(const hdring_xport_t *x, const hdring_msg_t *m, bool is_send, hdring_req_t *req)
{
    sim_world_t *w = x->ctx;
    const int r = running_rank;
    sim_rank_t *rk = &w->ranks[r];
    int slot = 0;

    while (slot < HDRING_MAX_INFLIGHT && NULL != rk->inflight[slot]) {
        ++slot;
    }
    if (HDRING_MAX_INFLIGHT == slot) {
        return fail(w, "rank %d: more than %d messages in flight", r, HDRING_MAX_INFLIGHT);
    }
    const int peer = hdring_view_peer(x->view, m->peer);
    if (m->peer < 0 || m->peer >= x->size || peer < 0 || peer >= w->p || peer == r) {
        return fail(w, "rank %d: started %s peer %d (%d in a view) of %d", r, is_send ? "send to" : "receive from",
                    peer, m->peer, w->p);
    }
    const hdring_loc_t at = hdring_view_loc(x->view, m->at);
    char *addr = range(w, r, at, m->count, !is_send, is_send ? "started send" : "started receive");
    if (NULL == addr) {
        return HDRING_ERR_TRANSPORT;
    }
    sim_rec_t *rec = calloc(1, sizeof(*rec));
    if (NULL == rec) {
        return fail(w, "out of memory");
    }
    rec->src = is_send ? r : peer;
    rec->dst = is_send ? peer : r;
    rec->channel = x->channel;
    rec->is_send = is_send;
    rec->started = true;
    rec->count = m->count;
    rec->addr = addr;
    rec->ready = rk->clock;
    rk->inflight[slot] = rec;
    *req = slot;
    post_record(w, r, rec);
    return HDRING_OK;
}

static int sim_wait(const hdring_xport_t *x, hdring_req_t *reqs, int n)
{
    sim_world_t *w = x->ctx;
    const int r = running_rank;
    sim_rank_t *rk = &w->ranks[r];

    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE == reqs[i]) {
            continue;
        }
        if (reqs[i] < 0 || reqs[i] >= HDRING_MAX_INFLIGHT || NULL == rk->inflight[reqs[i]]) {
            return fail(w, "rank %d waits for message %d, which is not in flight", r, reqs[i]);
        }
        sim_rec_t *rec = rk->inflight[reqs[i]];
        if (!rec->done) {
            rec->awaited = true;
            rk->waiting += 1;
            if (!rec->is_send && NULL != rec->partner) { /* matched, waiting to be copied in: now */
                time_message(w, rec->partner, rec);
            }
        }
    }
    block_until_matched(w, rk);
    for (int i = 0; i < n; ++i) {
        if (HDRING_REQ_NONE != reqs[i]) {
            sim_rec_t *rec = rk->inflight[reqs[i]];
            rk->clock = rec->end > rk->clock ? rec->end : rk->clock;
            free(rec);
            rk->inflight[reqs[i]] = NULL;
            reqs[i] = HDRING_REQ_NONE;
        }
    }
    return '\0' == w->error[0] ? HDRING_OK : HDRING_ERR_TRANSPORT;
}

static int sim_reduce(const hdring_xport_t *x, hdring_loc_t left_at, hdring_loc_t right_at, hdring_loc_t dst_at,
                      size_t count, unsigned flags)
{
    sim_world_t *w = x->ctx;
    const int r = running_rank;
    sim_rank_t *rk = &w->ranks[r];
    const size_t bytes = count * w->op.elem_size;

    (void) flags; /* the simulator always evaluates left (op) right the same way */
    if (0 == count) {
        return HDRING_OK;
    }
    left_at = hdring_view_loc(x->view, left_at);
    right_at = hdring_view_loc(x->view, right_at);
    dst_at = hdring_view_loc(x->view, dst_at);
    char *left = range(w, r, left_at, count, false, "reduce (left)");
    char *right = range(w, r, right_at, count, false, "reduce (right)");
    char *dst = range(w, r, dst_at, count, true, "reduce (dst)");
    if (NULL == left || NULL == right || NULL == dst) {
        return HDRING_ERR_TRANSPORT;
    }
    if ((dst != left && overlap(dst, bytes, left, bytes)) || (dst != right && overlap(dst, bytes, right, bytes))) {
        return fail(w, "rank %d: reduce into %s[%zu] overlaps an operand partially", r, buf_name(dst_at.buf),
                    dst_at.off);
    }
    if (dst == left && dst != right && NULL == range(w, r, right_at, count, true, "reduce (right, clobbered)")) {
        return HDRING_ERR_TRANSPORT;
    }
    if (w->tmp_bytes < bytes) {
        free(w->tmp);
        w->tmp = malloc(bytes);
        w->tmp_bytes = NULL == w->tmp ? 0 : bytes;
        if (NULL == w->tmp) {
            return fail(w, "out of memory");
        }
    }
    w->op.apply(left, right, w->tmp, count);
    if (dst == left && dst != right) {
        memset(right, POISON, bytes); /* allowed by the interface: catches kernels that reuse it */
    }
    memcpy(dst, w->tmp, bytes);
    occupy(w, &rk->activity, rk->clock, (double) bytes * w->cost.gamma);
    rk->clock += (double) bytes * w->cost.gamma;
    rk->stats.bytes_reduced += bytes;
    return HDRING_OK;
}

static int sim_copy(const hdring_xport_t *x, hdring_loc_t src_at, hdring_loc_t dst_at, size_t count)
{
    sim_world_t *w = x->ctx;
    const int r = running_rank;
    const size_t bytes = count * w->op.elem_size;
    if (0 == count) {
        return HDRING_OK;
    }
    src_at = hdring_view_loc(x->view, src_at);
    dst_at = hdring_view_loc(x->view, dst_at);
    char *src = range(w, r, src_at, count, false, "copy (src)");
    char *dst = range(w, r, dst_at, count, src_at.buf != dst_at.buf || src_at.off != dst_at.off, "copy (dst)");
    if (NULL == src || NULL == dst) {
        return HDRING_ERR_TRANSPORT;
    }
    if (src != dst && overlap(src, bytes, dst, bytes)) {
        return fail(w, "rank %d: copy between overlapping ranges", r);
    }
    memmove(dst, src, bytes);
    return HDRING_OK;
}

/* Each take gets its own allocation (so out-of-bounds use shows under sanitizers), kept until sim_destroy. */
static void *sim_take(const hdring_xport_t *x, size_t bytes)
{
    sim_world_t *w = x->ctx;
    const size_t header = 16; /* keeps the memory handed out aligned for any type */
    if (bytes > (size_t) -1 - header) {
        return NULL;
    }
    char *chunk = malloc(header + bytes);
    if (NULL == chunk) {
        return NULL;
    }
    *(void **) chunk = w->taken;
    w->taken = chunk;
    return chunk + header;
}

static const hdring_transport_ops_t sim_ops = {
    .exchange = sim_exchange,
    .start = sim_start,
    .wait = sim_wait,
    .reduce = sim_reduce,
    .copy = sim_copy,
    .take = sim_take,
    .post_exchange = sim_post_exchange,
    .test_exchange = sim_test_exchange,
    .test = sim_test,
};

sim_world_t *sim_create(int p, const sim_op_t *op, sim_cost_t cost)
{
    sim_world_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        return NULL;
    }
    w->p = p;
    w->op = *op;
    w->cost = cost;
    w->ranks = calloc((size_t) p, sizeof(*w->ranks));
    w->ready = calloc((size_t) p, sizeof(*w->ready));
    w->ready_seq = calloc((size_t) p, sizeof(*w->ready_seq));
    if (NULL == w->ranks || NULL == w->ready || NULL == w->ready_seq) {
        sim_destroy(w);
        return NULL;
    }
    for (int r = 0; r < p; ++r) {
        w->ranks[r].xport.ops = &sim_ops;
        w->ranks[r].xport.ctx = w;
        w->ranks[r].xport.rank = r;
        w->ranks[r].xport.size = p;
        w->ranks[r].xport.view = NULL;
    }
    return w;
}

int sim_set_nodes(sim_world_t *w, int nodes, const int *node_of, sim_cost_t network)
{
    w->nodes = nodes;
    w->network = network;
    w->node_of = malloc((size_t) w->p * sizeof(*w->node_of));
    w->link_out = calloc((size_t) nodes, sizeof(*w->link_out));
    w->link_in = calloc((size_t) nodes, sizeof(*w->link_in));
    w->link_stats = calloc((size_t) nodes, sizeof(*w->link_stats));
    if (NULL == w->node_of || NULL == w->link_out || NULL == w->link_in || NULL == w->link_stats) {
        return -1;
    }
    for (int r = 0; r < w->p; ++r) {
        w->node_of[r] = node_of[r];
    }
    return 0;
}

const sim_link_stats_t *sim_link_stats(const sim_world_t *w, int node) { return &w->link_stats[node]; }

void sim_set_buffer(sim_world_t *w, int rank, hdring_buf_t b, void *mem, size_t elems, bool writable)
{
    w->ranks[rank].buf[b].mem = mem;
    w->ranks[rank].buf[b].elems = elems;
    w->ranks[rank].buf[b].writable = writable;
}

static void rank_entry(void)
{
    sim_world_t *w = running_world;
    const int r = running_rank;
    sim_rank_t *rk = &w->ranks[r];
    rk->result = w->body(&rk->xport, w->arg);
    rk->state = RANK_FINISHED;
    rk->stats.finish = rk->clock;
    for (int i = 0; i < HDRING_MAX_INFLIGHT && HDRING_OK == rk->result; ++i) {
        if (NULL != rk->inflight[i]) {
            fail(w, "rank %d returned with messages in flight", r);
            break;
        }
    }
    for (int c = 0; c < SIM_CHANNELS && HDRING_OK == rk->result; ++c) {
        if (NULL != rk->posted[c].recs) {
            fail(w, "rank %d returned with an exchange in flight on channel %d", r, c);
            break;
        }
    }
}

/* The length of the union of a set of intervals (sorted by start). */
static double union_length(const busy_t *b)
{
    double total = 0, from = 0, to = 0;
    for (int i = 0; i < b->n; ++i) {
        if (0 == i || b->start[i] > to) {
            total += to - from;
            from = b->start[i];
            to = b->end[i];
        } else if (b->end[i] > to) {
            to = b->end[i];
        }
    }
    return b->n > 0 ? total + to - from : 0;
}

/* In a function of its own: getcontext returns twice, and the caller's loop variables must not be live here. */
static int setup_rank(sim_world_t *w, sim_rank_t *rk)
{
    rk->stack = malloc(STACK_BYTES);
    if (NULL == rk->stack || 0 != getcontext(&rk->ctx)) {
        return -1;
    }
    rk->ctx.uc_stack.ss_sp = rk->stack;
    rk->ctx.uc_stack.ss_size = STACK_BYTES;
    rk->ctx.uc_link = &w->main;
    makecontext(&rk->ctx, rank_entry, 0);
    return 0;
}

int sim_run(sim_world_t *w, int (*body)(const hdring_xport_t *x, void *arg), void *arg)
{
    w->body = body;
    w->arg = arg;
    running_world = w;
    for (int r = 0; r < w->p; ++r) {
        if (0 != setup_rank(w, &w->ranks[r])) {
            fail(w, "cannot set up virtual rank %d", r);
            return -1;
        }
        make_ready(w, r);
    }
    while (w->ready_count > 0) {
        running_rank = next_ready(w);
        swapcontext(&w->main, &w->ranks[running_rank].ctx);
    }
    for (int r = 0; r < w->p; ++r) {
        sim_rank_t *rk = &w->ranks[r];
        free(rk->stack);
        rk->stack = NULL;
        rk->stats.busy = union_length(&rk->activity);
        if (RANK_FINISHED != rk->state) {
            const sim_rec_t *s = rk->unmatched_recvs;
            fail(w, "deadlock: rank %d waits%s%d", r, NULL != s ? " for a message from rank " : " (sends only) ",
                 NULL != s ? s->src : -1);
        } else if (HDRING_OK != rk->result) {
            fail(w, "rank %d returned %d", r, rk->result);
        }
    }
    return '\0' == w->error[0] ? 0 : -1;
}

const char *sim_error(const sim_world_t *w) { return w->error; }

const sim_stats_t *sim_stats(const sim_world_t *w, int rank) { return &w->ranks[rank].stats; }

double sim_time(const sim_world_t *w)
{
    double t = 0;
    for (int r = 0; r < w->p; ++r) {
        t = w->ranks[r].stats.finish > t ? w->ranks[r].stats.finish : t;
    }
    return t;
}

const hdring_xport_t *sim_xport(const sim_world_t *w, int rank) { return &w->ranks[rank].xport; }

void sim_destroy(sim_world_t *w)
{
    if (NULL == w) {
        return;
    }
    while (NULL != w->taken) {
        void *next = *(void **) w->taken;
        free(w->taken);
        w->taken = next;
    }
    if (NULL != w->ranks) {
        for (int r = 0; r < w->p; ++r) {
            sim_rank_t *rk = &w->ranks[r];
            free(rk->stack);
            for (int i = 0; i < HDRING_MAX_INFLIGHT; ++i) {
                free(rk->inflight[i]); /* left by a rank that failed: matched or not, nobody reads it now */
            }
            for (int c = 0; c < SIM_CHANNELS; ++c) {
                free(rk->posted[c].recs);
            }
            busy_t *sets[3] = {&rk->send_port, &rk->recv_port, &rk->activity};
            for (int k = 0; k < 3; ++k) {
                free(sets[k]->start);
                free(sets[k]->end);
            }
        }
    }
    for (int j = 0; j < w->nodes; ++j) {
        if (NULL != w->link_out) {
            free(w->link_out[j].start);
            free(w->link_out[j].end);
        }
        if (NULL != w->link_in) {
            free(w->link_in[j].start);
            free(w->link_in[j].end);
        }
    }
    free(w->link_out);
    free(w->link_in);
    free(w->link_stats);
    free(w->node_of);
    free(w->ranks);
    free(w->ready);
    free(w->ready_seq);
    free(w->tmp);
    free(w);
}
