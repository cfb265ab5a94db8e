/* Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* The simulated machine as the driver sees it: see smpi_world.h. */
#include "smpi_world.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/config.h>

#include "hdring_defaults.h"

#define SETUP_TAG 4243
#define PROBE_TAG 4244
#define PROBE_ROUNDS 4
#define SMALL_PROBE 8
#define LARGE_PROBE_1 (1u << 20)
#define LARGE_PROBE_2 (4u << 20)
/* Simulated seconds between the slowest rank's leaving the barrier and the timed calls' start: more than any
 * rank then needs to learn when that was (an 8-byte allreduce, under 100 us at 4,096 ranks here). */
#define START_MARGIN 1e-2

double smpi_host_reduce_rate(void)
{
    const char *mbs = sg_host_get_property_value(sg_host_self(), "hdring_reduce_mbs");
    return NULL == mbs ? 0 : atof(mbs) * 1e6;
}

/* The ranks' setup talks only point to point, in ceil(log2 p) rounds: SMPI's collectives would run the algorithm
 * each run's --cfg selects for the collective under test (its default allgather posts p^2 messages, minutes at
 * 256 ranks), and their time must not depend on it. */

/* Round d of a dissemination: send `bytes` of out to rank + d, receive as many into in from rank - d. */
static void disseminate(MPI_Comm comm, int rank, int p, int d, const void *out, void *in, int bytes)
{
    MPI_Request q[2];
    MPI_Irecv(in, bytes, MPI_BYTE, (rank - d + p) % p, SETUP_TAG, comm, &q[0]);
    MPI_Isend(out, bytes, MPI_BYTE, (rank + d) % p, SETUP_TAG, comm, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

void smpi_barrier(MPI_Comm comm)
{
    int rank, p;
    char out = 0, in;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int d = 1; d < p; d *= 2) { /* every rank leaves in the same round */
        disseminate(comm, rank, p, d, &out, &in, 1);
    }
}

void smpi_allmax(MPI_Comm comm, double *v, int n)
{
    int rank, p;
    double in[SMPI_ALLMAX_MAX];
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    for (int d = 1; d < p; d *= 2) { /* a maximum may count a rank twice: after the rounds each has seen all */
        disseminate(comm, rank, p, d, v, in, n * (int) sizeof(double));
        for (int i = 0; i < n; ++i) {
            v[i] = in[i] > v[i] ? in[i] : v[i];
        }
    }
}

/* Every rank's `mine` into all[0 .. p), rank r's at all[r] (Bruck's allgather: the blocks of ranks rank .. rank
 * + 2^k - 1 travel together, to rank - 2^k, then are rotated into place). False without memory. */
static bool allgather_int(MPI_Comm comm, int mine, int *all)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    int *held = malloc((size_t) p * sizeof(*held)); /* held[i]: the value of rank + i */
    if (NULL == held) {
        return false;
    }
    held[0] = mine;
    for (int have = 1; have < p; have *= 2) {
        const int n = have < p - have ? have : p - have;
        MPI_Request q[2];
        MPI_Irecv(&held[have], n * (int) sizeof(int), MPI_BYTE, (rank + have) % p, SETUP_TAG, comm, &q[0]);
        MPI_Isend(held, n * (int) sizeof(int), MPI_BYTE, (rank - have + p) % p, SETUP_TAG, comm, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < p; ++i) {
        all[(rank + i) % p] = held[i];
    }
    free(held);
    return true;
}

double smpi_time_calls(MPI_Comm comm, int calls, void (*call)(void *arg), void *arg)
{
    smpi_barrier(comm);
    const double now = simgrid_get_clock();
    double latest = now;
    smpi_allmax(comm, &latest, 1);
    const double start = latest + START_MARGIN;
    if (simgrid_get_clock() > start) {
        fprintf(stderr, "hdring_smpi: the synchronized start came too late; times include the skew\n");
    }
    sg_actor_sleep_until(start);
    for (int c = 0; c < calls; ++c) {
        call(arg);
    }
    double slowest = (simgrid_get_clock() - start) / calls;
    smpi_allmax(comm, &slowest, 1);
    return slowest;
}

/* The node of every rank: the index of its host among the platform's, then numbered by lowest rank. */
static int place(smpi_world_t *w)
{
    const sg_host_t self = sg_host_self();
    sg_host_t *hosts = sg_host_list();
    const int nhosts = (int) sg_host_count();
    int mine = 0;
    while (mine < nhosts && hosts[mine] != self) {
        ++mine;
    }
    free(hosts);
    int *host = malloc((size_t) w->p * sizeof(*host)), *number = malloc((size_t) nhosts * sizeof(*number));
    w->node = malloc((size_t) w->p * sizeof(*w->node));
    if (NULL == host || NULL == number || NULL == w->node) {
        free(host);
        free(number);
        return -1;
    }
    if (!allgather_int(w->comm, mine, host)) {
        free(host);
        free(number);
        return -1;
    }
    for (int h = 0; h < nhosts; ++h) {
        number[h] = -1;
    }
    int nodes = 0;
    for (int r = 0; r < w->p; ++r) {
        if (number[host[r]] < 0) {
            number[host[r]] = nodes++;
        }
        w->node[r] = number[host[r]];
    }
    free(host);
    free(number);
    return hdring_topo_init(&w->topo, w->p, w->node, NULL) == HDRING_OK ? 0 : -1;
}

/* A round trip of `bytes` between rank 0 and `peer` (both call it; the others do not). */
static void round_trip(MPI_Comm comm, int rank, int peer, char *buf, int bytes)
{
    if (0 == rank) {
        MPI_Send(buf, bytes, MPI_BYTE, peer, PROBE_TAG, comm);
        MPI_Recv(buf, bytes, MPI_BYTE, peer, PROBE_TAG, comm, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, PROBE_TAG, comm, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, PROBE_TAG, comm);
    }
}

/* One-way time of `bytes` between rank 0 and `peer`: a ping-pong's half, timed once a first round trip has
 * brought both into step (the peer may come late from the setup before). */
static double one_way(MPI_Comm comm, int rank, int peer, char *buf, int bytes)
{
    round_trip(comm, rank, peer, buf, bytes);
    const double start = MPI_Wtime();
    for (int k = 0; k < PROBE_ROUNDS; ++k) {
        round_trip(comm, rank, peer, buf, bytes);
    }
    return (MPI_Wtime() - start) / (2.0 * PROBE_ROUNDS);
}

/* Latency (s) and bandwidth (B/s) between rank 0 and peer, for rank 0. */
static void probe_pair(MPI_Comm comm, int rank, int peer, char *buf, double *latency, double *bandwidth)
{
    *latency = one_way(comm, rank, peer, buf, SMALL_PROBE);
    const double t1 = one_way(comm, rank, peer, buf, (int) LARGE_PROBE_1);
    const double t2 = one_way(comm, rank, peer, buf, (int) LARGE_PROBE_2);
    *bandwidth = (double) (LARGE_PROBE_2 - LARGE_PROBE_1) / (t2 - t1);
}

/* The model's parameters from the platform (smpi_world.h says how). */
static void measure(smpi_world_t *w)
{
    const hdring_shape_t *s = &w->topo.shape;
    const int nodes = s->nodes;
    int *first = malloc((size_t) nodes * sizeof(*first)); /* each node's lowest rank */
    char *buf = SMPI_SHARED_MALLOC(LARGE_PROBE_2);
    double v[4] = {HDRING_DEFAULT_LATENCY_US, HDRING_DEFAULT_BANDWIDTH_MBS, HDRING_DEFAULT_NETWORK_LATENCY_US,
                   HDRING_DEFAULT_NETWORK_BANDWIDTH_MBS};
    for (int r = w->p - 1; r >= 0; --r) {
        first[w->node[r]] = r;
    }
    int second = -1; /* another rank of node 0 */
    for (int r = 1; r < w->p && second < 0; ++r) {
        second = 0 == w->node[r] ? r : -1;
    }
    double lat, bw, sum = 0;
    if (second > 0 && (0 == w->rank || second == w->rank)) {
        probe_pair(w->comm, w->rank, second, buf, &lat, &bw);
        v[0] = lat * 1e6;
        v[1] = bw / 1e6;
    }
    for (int j = 1; j < nodes; ++j) {
        if (0 == w->rank || first[j] == w->rank) {
            sum += one_way(w->comm, w->rank, first[j], buf, SMALL_PROBE);
        }
    }
    if (nodes > 1 && (0 == w->rank || first[nodes - 1] == w->rank)) {
        probe_pair(w->comm, w->rank, first[nodes - 1], buf, &lat, &bw);
        v[2] = sum / (nodes - 1) * 1e6;
        v[3] = bw / 1e6;
    }
    for (int i = 0; i < 4 && 0 != w->rank; ++i) { /* rank 0's values: the others' count for nothing */
        v[i] = -1;
    }
    smpi_allmax(w->comm, v, 4);
    SMPI_SHARED_FREE(buf);
    free(first);
    const double eager = sg_cfg_get_int("smpi/send-is-detached-thresh") - 1.0; /* sends below it go at once */
    w->units = (hdring_model_units_t) {v[0], v[1], w->reduce_rate / 1e6, v[2], v[3], 0, eager, eager};
}

int smpi_world_init(smpi_world_t *w, MPI_Comm comm)
{
    w->comm = comm;
    MPI_Comm_rank(comm, &w->rank);
    MPI_Comm_size(comm, &w->p);
    w->node = NULL;
    w->reduce_rate = smpi_host_reduce_rate();
    if (w->reduce_rate <= 0) {
        if (0 == w->rank) {
            fprintf(stderr, "hdring_smpi: the platform's hosts need the property hdring_reduce_mbs\n");
        }
        return -1;
    }
    if (0 != place(w)) {
        if (0 == w->rank) {
            fprintf(stderr, "hdring_smpi: out of memory placing the ranks\n");
        }
        return -1;
    }
    measure(w);
    smpi_barrier(comm);
    return 0;
}

void smpi_world_free(smpi_world_t *w)
{
    hdring_topo_free(&w->topo);
    free(w->node);
}
