/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * hdring_sim: p virtual ranks running the real algorithm code against an in-memory transport.
 *
 * Each virtual rank is a coroutine (ucontext) executing the algorithm on its own buffers; one thread, so runs
 * are deterministic and fast enough for thousands of ranks. Messages are synchronous (a send completes only
 * when matched by a receive), the strictest semantics MPI allows: a schedule that survives here cannot
 * deadlock on rendezvous.
 *
 * Every transport call is checked: buffer bounds, writes to read-only buffers, overlapping ranges in one
 * exchange, any use of a range a message in flight receives into (or a change to one it sends), messages left in
 * flight when a rank returns, the aliasing rules of reduce and copy (hdring_transport.h), message sizes that
 * differ between sender and receiver, self-sends. A reduce whose dst is its left operand poisons the right
 * operand, as the interface allows, so a kernel relying on it surviving is caught.
 *
 * Time follows the alpha-beta-gamma model: a message starts when both ends have posted it and takes
 * alpha + bytes * beta, a reduction takes bytes * gamma, copies are free. Within a node the receiver copies each
 * message in (as Open MPI's shared-memory transport does for all but small messages): a message takes the earliest
 * gap of alpha + bytes * beta its receiver's receive port has from the later of its posts (a started message,
 * hdring_isend or hdring_irecv, no earlier than its receiver waits for it), so a rank's receives queue and its
 * sends within a node overlap, and a reduction overlaps a transfer into the same rank only across nodes. Across
 * nodes each rank has a send and a receive port: the messages of one exchange queue on each in posting order, and
 * a started message takes the earliest gap in which the sender's send port, the receiver's receive port and both
 * link directions (below) are free, while the ranks' clocks move on; waiting for it moves the clock to its end.
 * Across nodes an exchange issued while messages are in flight is timed as if its ports were free. Per rank the
 * simulator counts bytes and messages sent and received, bytes reduced, the clock at which the rank finished, and
 * how long it was busy: the union of the times its messages moved and it reduced (the rest of the run it waited).
 *
 * Nodes (sim_set_nodes): ranks on different nodes exchange over the network's alpha and beta, and each node has
 * one link, a send and a receive direction that carry one message at a time: a message across nodes occupies
 * the sender's node's send direction and the receiver's node's receive direction for bytes * beta (then alpha
 * later it has arrived), in the earliest gap both have at or after its start. Ranks run in the order of their
 * clocks, so links are claimed roughly in time order. Per node the simulator counts the bytes its link sent and
 * received.
 *
 * Views (hdring_transport.h) are resolved per message, as the component's transport does. Messages match within
 * their channel only; a nonblocking exchange (post_exchange, test_exchange) may be in flight on each of
 * SIM_CHANNELS channels of a rank at once, and a test that finds messages in flight changes nothing (sim_poll
 * waits for the next completion).
 */
#ifndef HDRING_SIM_H
#define HDRING_SIM_H

#include <stdbool.h>
#include <stddef.h>

#include "hdring_transport.h"

typedef struct sim_op {
    size_t elem_size;
    /* dst[i] = left[i] (op) right[i] for n elements; the three never overlap */
    void (*apply)(const void *left, const void *right, void *dst, size_t n);
} sim_op_t;

typedef struct sim_cost {
    double alpha, beta, gamma; /* per message, per byte moved, per byte reduced */
} sim_cost_t;

typedef struct sim_stats {
    size_t bytes_sent, bytes_received, bytes_reduced;
    size_t msgs_sent, msgs_received;
    double finish;
    double busy; /* time its ports were transferring (send and receive overlap) or it was reducing */
} sim_stats_t;

typedef struct sim_link_stats {
    size_t bytes_sent, bytes_received; /* across the node's link */
} sim_link_stats_t;

typedef struct sim_world sim_world_t;

sim_world_t *sim_create(int p, const sim_op_t *op, sim_cost_t cost);
/* Puts rank r on node node_of[r] (0 .. nodes-1); messages between nodes cost `network` (its gamma unused). */
int sim_set_nodes(sim_world_t *w, int nodes, const int *node_of, sim_cost_t network);
/* Buffer b of `rank`: `elems` elements at mem. A read-only buffer may not be written (IN, unless it is the same
 * memory as OUT). */
void sim_set_buffer(sim_world_t *w, int rank, hdring_buf_t b, void *mem, size_t elems, bool writable);
/* Run body on every virtual rank. 0 when every rank returned HDRING_OK; otherwise -1 and sim_error() says why
 * (a rank's error, a check that failed, a deadlock). */
int sim_run(sim_world_t *w, int (*body)(const hdring_xport_t *x, void *arg), void *arg);
const char *sim_error(const sim_world_t *w);
/* Within sim_run: the running rank waits until a message of its completes, unless one has since its last poll.
 * For bodies that run several schedules without blocking (hdring_exec_run) and find them all waiting. */
void sim_poll(const hdring_xport_t *x);
/* Rank r's transport handle, outside sim_run good for hdring_take only (sizing scratch before a run). */
const hdring_xport_t *sim_xport(const sim_world_t *w, int rank);
const sim_stats_t *sim_stats(const sim_world_t *w, int rank);
const sim_link_stats_t *sim_link_stats(const sim_world_t *w, int node);
double sim_time(const sim_world_t *w); /* the latest finish */
void sim_destroy(sim_world_t *w);

#endif
