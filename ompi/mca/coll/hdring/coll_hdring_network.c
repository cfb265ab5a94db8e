/*
 * Copyright (c) 2026 The hdring developers. SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
 *
 * coll/hdring's measurement of the network (coll_hdring_network.h).
 *
 * Pairs      the leaders (lowest ranks) of nodes 2k and 2k+1 in the locality order; with an odd number of nodes
 *            the last one's leader idles. Every pair measures at once, as a collective loads the links.
 * Measures   (the lower node's leader times, the other answers) after a warm-up of small messages and one large
 *            round trip (which opens the connection and the transport's windows):
 *              latency     the 4th fastest of 16 round trips of 1 byte, halved (a busy moment only ever slows
 *                          one: the fastest quarter is the link);
 *              bandwidth   round trips of MEDIUM and LARGE bytes: (LARGE - MEDIUM) / half the difference of
 *                          their times. The slope leaves out what every message pays whatever its size (latency,
 *                          a rendezvous handshake, a shaper's burst), which one size alone would count as speed;
 *              exchange    both send at once, MEDIUM then LARGE: (LARGE - MEDIUM) / the difference;
 *            each up to 3 times while the time so far is under 5 ms, the fastest taken. Timings a busy node leaves meaningless (the larger no slower) count as
 *            nothing measured; so do nodes that share a machine with fewer cores than ranks (the scheduler's
 *            timings), which are not measured at all.
 * Agreement  every rank contributes its pair's values (or none) to one allgather (hdring's bootstrap exchange),
 *            and every rank computes the same means: the same parameters everywhere, as the parameter check
 *            requires. An error on any rank, or pairs whose bandwidths differ by more than a factor of 2, and no
 *            rank uses any value.
 * Cost       per repeat, (MEDIUM + LARGE) x 3 bytes each way: at 200 Mbit/s (25 MB/s) about 16 ms, done once,
 *            and 22 small round trips: under 20 ms, once per job; at 10 Gbit/s under 1 ms, 3 repeats.
 * Tests      HDRING_NETWORK_FAULT=error makes the leader of node 1 report a failure; =skew makes the pairs of
 *            nodes 0-1 and 2-3 report 100 and 800 MB/s (with 4 nodes or more, the pairs then disagree).
 */
#include "coll_hdring_network.h"

#include <stdlib.h>
#include <string.h>

#include "opal/util/output.h"
#include "ompi/mca/pml/pml.h"

#include "coll_hdring_params.h"
#include "coll_hdring_bootstrap.h"
#include "coll_hdring_util.h"

#define MEDIUM (32 * 1024)
#define LARGE (96 * 1024)
#define ROUND_TRIPS 16
#define WARM_UP 4
#define REPEATS_MAX 3          /* of the medium and large messages, while... */
#define REPEAT_BUDGET_S 0.005  /* ...the ones before took less than this */
#define NVALUES 5 /* per rank: measured (1/0), failed (1/0), latency ns, bandwidth B/s, exchange B/s */

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* A round trip of `bytes` with peer: the initiator sends first. Its time (initiator) or 0; < 0 on an error. */
static double round_trip(struct ompi_communicator_t *comm, int peer, bool initiator, char *buf, size_t bytes,
                         int tag)
{
    const double start = mca_coll_hdring_now();
    int rc;
    if (initiator) {
        rc = MCA_PML_CALL(send(buf, bytes, MPI_BYTE, peer, tag, MCA_PML_BASE_SEND_STANDARD, comm));
        rc = OMPI_SUCCESS == rc ? MCA_PML_CALL(recv(buf, bytes, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE)) : rc;
    } else {
        rc = MCA_PML_CALL(recv(buf, bytes, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE));
        rc = OMPI_SUCCESS == rc ? MCA_PML_CALL(send(buf, bytes, MPI_BYTE, peer, tag, MCA_PML_BASE_SEND_STANDARD, comm))
                                : rc;
    }
    return OMPI_SUCCESS != rc ? -1 : initiator ? mca_coll_hdring_now() - start : 0;
}

/* Both send `bytes` at once: the time, < 0 on an error. */
static double exchange(struct ompi_communicator_t *comm, int peer, char *out, char *in, size_t bytes, int tag)
{
    ompi_request_t *req;
    const double start = mca_coll_hdring_now();
    int rc = MCA_PML_CALL(irecv(in, bytes, MPI_BYTE, peer, tag, comm, &req));
    if (OMPI_SUCCESS != rc) {
        return -1;
    }
    rc = MCA_PML_CALL(send(out, bytes, MPI_BYTE, peer, tag, MCA_PML_BASE_SEND_STANDARD, comm));
    const int waited = ompi_request_wait(&req, MPI_STATUS_IGNORE);
    return OMPI_SUCCESS != rc || OMPI_SUCCESS != waited ? -1 : mca_coll_hdring_now() - start;
}

/* This leader's pair, measured into v (NVALUES): the initiator fills it, the other leaves it unmeasured. Both
 * make every message whatever happens, so that neither waits for one the other skipped: without memory, the
 * large ones are empty, and the measurement counts as failed. */
static void measure_pair(struct ompi_communicator_t *comm, int peer, bool initiator, int64_t *v)
{
    const int tag = mca_coll_hdring_coll_tag(MCA_COLL_HDRING_BCAST); /* no collective call can be in flight yet */
    static char none[1];
    char *mem = calloc(2, LARGE), *buf = NULL != mem ? mem : none;
    const size_t large_bytes = NULL != mem ? LARGE : 0;
    double rtt[ROUND_TRIPS];
    bool ok = NULL != mem;

    for (int i = 0; i < WARM_UP; ++i) {
        ok &= round_trip(comm, peer, initiator, buf, 1, tag) >= 0;
    }
    ok &= round_trip(comm, peer, initiator, buf, large_bytes, tag) >= 0; /* opens the windows */
    for (int i = 0; i < ROUND_TRIPS; ++i) {
        ok &= (rtt[i] = round_trip(comm, peer, initiator, buf, 1, tag)) >= 0;
    }
    /* the faster of each size: a busy moment slows one, never speeds it */
    double trip[2] = {-1, -1}, both[2] = {-1, -1};
    const size_t bytes[2] = {NULL != mem ? MEDIUM : 0, large_bytes};
    const double start = mca_coll_hdring_now();
    for (int i = 0, again = 1; again; ++i) {
        for (int k = 0; k < 2; ++k) {
            const double t = round_trip(comm, peer, initiator, buf, bytes[k], tag);
            const double u = exchange(comm, peer, buf, buf + large_bytes, bytes[k], tag);
            ok &= t >= 0 && u >= 0;
            trip[k] = i == 0 || t < trip[k] ? t : trip[k];
            both[k] = i == 0 || u < both[k] ? u : both[k];
        }
        /* the initiator says whether to repeat (within the time budget, nothing failed on its side), in a byte
         * the answer echoes: both follow that byte, so neither waits for a message the other skips */
        buf[0] = (char) (initiator && ok && i + 1 < REPEATS_MAX && mca_coll_hdring_now() - start < REPEAT_BUDGET_S);
        ok &= round_trip(comm, peer, initiator, buf, 1, tag) >= 0;
        again = 0 != buf[0];
    }
    free(mem);
    v[1] = !ok; /* a failed message fails the measurement on every rank, the peer's included */
    if (!ok || !initiator) {
        return;
    }
    qsort(rtt, ROUND_TRIPS, sizeof(*rtt), cmp);
    /* the slopes between the two sizes: what a byte more costs, without the latency, a handshake or a burst */
    const double latency = rtt[ROUND_TRIPS / 4 - 1] / 2, one_way = (trip[1] - trip[0]) / 2, each_way = both[1] - both[0];
    const double bandwidth = one_way > 0 ? (LARGE - MEDIUM) / one_way : 0;
    const double exchanged = each_way > 0 ? (LARGE - MEDIUM) / each_way : 0;
    v[0] = bandwidth > 0 && exchanged > 0;
    v[2] = (int64_t) (latency * 1e9);
    v[3] = (int64_t) bandwidth;
    v[4] = (int64_t) exchanged;
}

int mca_coll_hdring_network_measure(struct ompi_communicator_t *comm, const hdring_topo_t *topo,
                                    mca_coll_hdring_network_t *out, char *why, size_t why_len)
{
    const int p = ompi_comm_size(comm), me = ompi_comm_rank(comm), nodes = topo->shape.nodes;
    const char *fault = getenv("HDRING_NETWORK_FAULT");
    int64_t mine[NVALUES] = {0}, *all = malloc((size_t) p * NVALUES * sizeof(*all));
    int *leader = malloc((size_t) nodes * sizeof(*leader));

    if (NULL != leader) {
        for (int n = 0; n < nodes; ++n) {
            leader[n] = -1;
        }
        for (int r = p - 1; r >= 0; --r) {
            leader[topo->node_of[r]] = r;
        }
        const int node = topo->node_of[me], partner = node ^ 1;
        if (leader[node] == me && partner < nodes) {
            measure_pair(comm, leader[partner], 0 == node % 2, mine);
        }
        if (NULL != fault && leader[node] == me) {
            mine[1] |= 1 == node && 0 == strcmp(fault, "error");
            if (0 == strcmp(fault, "skew") && 0 == node % 2 && partner < nodes) { /* whatever they timed */
                mine[0] = 1;
                mine[2] = 10000;
                mine[3] = mine[4] = 0 == node ? 100000000 : 800000000;
            }
        }
    } else {
        mine[1] = 1;
    }
    /* every rank takes part, with empty messages when short of memory, and then every rank fails alike */
    int rc = mca_coll_hdring_gather_values(comm, NULL != all && NULL != leader ? mine : NULL, NVALUES, all);
    free(leader);
    if (OMPI_SUCCESS != rc) {
        snprintf(why, why_len, "the exchange of the results failed");
        free(all);
        return rc;
    }
    mca_coll_hdring_network_t n = {0};
    double lo = 0, hi = 0;
    bool failed = false;
    for (int r = 0; r < p; ++r) {
        const int64_t *v = all + (size_t) r * NVALUES;
        failed |= 0 != v[1];
        if (1 == v[0]) {
            const double bandwidth = (double) v[3] / 1e6;
            lo = 0 == n.pairs || bandwidth < lo ? bandwidth : lo;
            hi = 0 == n.pairs || bandwidth > hi ? bandwidth : hi;
            n.latency_us += (double) v[2] / 1e3;
            n.bandwidth_mbs += bandwidth;
            n.exchange_mbs += (double) v[4] / 1e6;
            ++n.pairs;
        }
    }
    free(all);
    if (failed) {
        snprintf(why, why_len, "a message between node leaders failed");
        return OMPI_ERROR;
    }
    if (0 == n.pairs) {
        snprintf(why, why_len, "the timings meant nothing (a large message no slower than a small one: busy nodes?)");
        return OMPI_ERROR;
    }
    if (hi > 2 * lo) {
        snprintf(why, why_len, "the pairs of leaders disagree (%.0f to %.0f MB/s)", lo, hi);
        return OMPI_ERROR;
    }
    n.latency_us /= n.pairs;
    n.bandwidth_mbs /= n.pairs;
    n.exchange_mbs /= n.pairs;
    *out = n;
    return OMPI_SUCCESS;
}
